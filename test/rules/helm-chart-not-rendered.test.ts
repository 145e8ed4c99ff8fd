import { strict as assert } from 'node:assert';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile } from '../../server/out/core/load/load-file';
import { lint } from '../helpers/lint';

const rules = ['helm-chart-not-rendered', 'yaml-syntax'];
const chart = (name: string, extra = '') => `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n${extra}`;

describe('helm-chart-not-rendered', () => {
  it('puts one info finding per application chart on its Chart.yaml, with the helm template command', () => {
    const { findings } = lint({ 'charts/api/Chart.yaml': chart('api'), 'charts/api/templates/svc.yaml': 'port: {{ .Values.port }}\n', 'web/Chart.yaml': chart('web'), 'web/templates/a.yaml': 'a: {{ .Values.a }}\n', 'web/templates/b.yaml': 'b: {{ .Values.b }}\n' }, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.column, f.severity]), [['charts/api/Chart.yaml', 1, 1, 'info'], ['web/Chart.yaml', 1, 1, 'info']]);
    assert.equal(findings[0].message, 'Helm chart "api": its template file is a Go template and not linted; put helm on PATH (or pass --helm) to lint what it renders, or lint the output: helm template RELEASE charts/api | npx kube-netlint -');
    assert.equal(findings[1].message, 'Helm chart "web": its 2 template files are Go templates and not linted; put helm on PATH (or pass --helm) to lint what it renders, or lint the output: helm template RELEASE web | npx kube-netlint -');
  });
  it('says why the chart was not rendered', () => {
    const files = [loadFile('web/Chart.yaml', chart('web')), loadFile('web/templates/a.yaml', 'a: {{ .Values.a }}\n')];
    const found = analyze(files, DEFAULT_CONFIG, { helmUnavailable: 'helm not found on PATH' }).findings.filter((f) => f.ruleId === 'helm-chart-not-rendered');
    assert.equal(found.length, 1);
    assert.match(found[0].message, /^Helm chart "web": its template file is a Go template and not linted \(not rendered: helm not found on PATH\);/);
  });
  it('is silent for charts without templates, library charts and vendored subcharts (they render with their parent)', () => {
    const { findings } = lint(
      {
        'Chart.yaml': chart('root'),
        'charts/sub/Chart.yaml': chart('sub'),
        'charts/sub/templates/x.yaml': 'x: {{ .Values.x }}\n',
        'lib/Chart.yaml': chart('lib', 'type: library\n'),
        'lib/templates/_helpers.tpl': '{{- define "lib.name" -}}x{{- end }}\n',
      },
      { rules },
    );
    assert.deepEqual(findings.map((f) => f.file), []);
  });
  it('is silent without a Chart.yaml', () => {
    assert.deepEqual(lint({ 'values.yaml': 'port: 80\n', 'templates/x.yaml': 'a: 1\n' }, { rules }).findings, []);
  });
});
