import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const rules = ['helm-chart-not-rendered', 'yaml-syntax'];
const chart = (name: string) => `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`;

describe('helm-chart-not-rendered', () => {
  it('puts one info finding per chart on its Chart.yaml, with the helm template command', () => {
    const { findings } = lint({ 'charts/api/Chart.yaml': chart('api'), 'charts/api/templates/svc.yaml': 'port: {{ .Values.port }}\n', 'Chart.yaml': chart('root') }, { rules });
    assert.deepEqual(findings.map((f) => [f.file, f.line, f.column, f.severity]), [['Chart.yaml', 1, 1, 'info'], ['charts/api/Chart.yaml', 1, 1, 'info']]);
    assert.equal(findings[0].message, 'Helm chart "root": its 0 template files are Go templates and not linted; lint the rendered output instead: helm template RELEASE . | npx kube-netlint -');
    assert.equal(findings[1].message, 'Helm chart "api": its template file is a Go template and not linted; lint the rendered output instead: helm template RELEASE charts/api | npx kube-netlint -');
  });
  it('is silent without a Chart.yaml', () => {
    assert.deepEqual(lint({ 'values.yaml': 'port: 80\n', 'templates/x.yaml': 'a: 1\n' }, { rules }).findings, []);
  });
});
