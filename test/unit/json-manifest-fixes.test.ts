import { strict as assert } from 'node:assert';
import type { CodeActionParams, TextEdit } from 'vscode-languageserver';
import { codeActions } from '../../server/out/lsp/code-actions';
import { applyOffsetEdits, ignoreObjectEdit } from '../../server/out/lsp/ignore-edits';
import { fixKeepsJson } from '../../server/out/core/rules/fixes/json-manifest';
import { loadFile } from '../../server/out/core/load/load-file';
import type { Finding } from '../../server/out/core/rules/rule';
import { applyEdits, lint } from '../helpers/lint';

/** Applies the fix titled `title` of the first finding of `rule` in `file` and returns the edited text, after checking it is JSON. */
function fixed(files: Record<string, string>, rule: string, file: string, title: string): string {
  const { findings } = lint(files, { rules: [rule] });
  const f = findings.find((x) => x.file === file);
  assert.ok(f, `${rule} in ${file}`);
  const fix = f.fixes.find((x) => x.title === title);
  assert.ok(fix, `fix "${title}" among ${JSON.stringify(f.fixes.map((x) => x.title))}`);
  const out = applyEdits(files[file], fix.edits);
  JSON.parse(out);
  return out;
}

const serviceA = [
  '{',
  '  "apiVersion": "v1",',
  '  "kind": "Service",',
  '  "metadata": {"name": "web"},',
  '  "spec": {',
  '    "type": "NodePort",',
  '    "selector": {"app": "web"},',
  '    "ports": [',
  '      {',
  '        "name": "http",',
  '        "port": 80,',
  '        "nodePort": 30080',
  '      }',
  '    ]',
  '  }',
  '}',
  '',
].join('\n');
const serviceB = '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "b"}, "spec": {"type": "NodePort", "ports": [{"port": 80, "targetPort": 80, "nodePort": 30080}]}}\n';
const deployment = [
  '{',
  '  "apiVersion": "apps/v1",',
  '  "kind": "Deployment",',
  '  "metadata": {"name": "web"},',
  '  "spec": {',
  '    "selector": {"matchLabels": {"app": "web"}},',
  '    "template": {',
  '      "metadata": {"labels": {"app": "web"}},',
  '      "spec": {"containers": [{"name": "web", "image": "nginx:1.27", "ports": [{"name": "http", "containerPort": 8080, "hostPort": 31500}],',
  '        "readinessProbe": {"httpGet": {"path": "/ready", "port": "https"}}}]}',
  '    }',
  '  }',
  '}',
  '',
].join('\n');

describe('quick fixes on JSON manifests keep valid JSON in its own layout', () => {
  const files = { 'a.json': serviceA, 'b.json': serviceB, 'deploy.json': deployment };

  it('changes a nodePort and a hostPort as JSON numbers', () => {
    assert.equal(fixed(files, 'nodeport-duplicate', 'a.json', 'Change nodePort 30080 to free port 30000'), serviceA.replace('"nodePort": 30080', '"nodePort": 30000'));
    assert.equal(fixed(files, 'host-port-in-nodeport-range', 'deploy.json', 'Change hostPort 31500 to 29999 (below the NodePort range)'), deployment.replace('"hostPort": 31500', '"hostPort": 29999'));
  });

  it('removes a hostPort with its comma', () => {
    const svc = '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}, "spec": {"type": "NodePort", "selector": {"app": "web"}, "ports": [{"port": 80, "targetPort": 8080, "nodePort": 31500}]}}\n';
    const out = fixed({ 'deploy.json': deployment, 's.json': svc }, 'host-port-conflicts-nodeport', 'deploy.json', 'Remove hostPort 31500 (reach the pod through Service default/web instead)');
    assert.equal(out, deployment.replace(', "hostPort": 31500', ''));
  });

  it('writes a port name as a JSON string', () => {
    assert.equal(fixed(files, 'probe-port-unresolved', 'deploy.json', 'Use the container\'s only port "http"'), deployment.replace('"port": "https"', '"port": "http"'));
    const ingress = '{"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "web"},\n "spec": {"defaultBackend": {"service": {"name": "web", "port": {"name": "htp"}}}}}\n';
    assert.equal(fixed({ ...files, 'ing.json': ingress }, 'ingress-backend-unresolved', 'ing.json', 'Use port 80 "http" of the Service (name http)'), ingress.replace('"htp"', '"http"'));
  });

  it('writes a case fix (protocol tcp → TCP, port name HTTP → http) as a JSON string', () => {
    const svc = '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "s"},\n "spec": {"ports": [{"name": "HTTP", "port": 80, "protocol": "tcp"}]}}\n';
    const { findings } = lint({ 's.json': svc }, { rules: ['service-spec-invalid'] });
    const fixes = findings.flatMap((f) => f.fixes);
    assert.deepEqual(fixes.map((f) => [f.title, f.edits.map((e) => e.newText)]), [['Change "HTTP" to "http"', ['"http"']], ['Change protocol "tcp" to "TCP"', ['"TCP"']]]);
    assert.equal(applyEdits(svc, fixes.flatMap((f) => f.edits)), svc.replace('"HTTP"', '"http"').replace('"tcp"', '"TCP"'));
  });

  it('quotes a boolean label value with JSON double quotes', () => {
    const cm = '{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": {"enabled": true}}}\n';
    assert.equal(fixed({ 'cm.json': cm }, 'object-invalid', 'cm.json', 'Quote "true"'), cm.replace('true', '"true"'));
  });

  it('adds a missing key as a JSON entry on its own line, or after the value in one-line JSON', () => {
    const withTarget = fixed(files, 'service-targetport-unresolved', 'a.json', 'Set targetPort to 8080 (containerPort "http" of Deployment default/web, container web)');
    assert.equal(withTarget, serviceA.replace('        "name": "http",\n', '        "targetPort": 8080,\n        "name": "http",\n'));
    const route = '{\n  "apiVersion": "gateway.networking.k8s.io/v1",\n  "kind": "HTTPRoute",\n  "metadata": {"name": "r"},\n  "spec": {"rules": [{"backendRefs": [\n    {\n      "name": "web"\n    }\n  ]}]}\n}\n';
    assert.equal(fixed({ ...files, 'r.json': route }, 'gateway-backend-unresolved', 'r.json', 'Add port: 80 (the only port of the Service)'), route.replace('"name": "web"\n', '"name": "web",\n      "port": 80\n'));
    const oneLine = '{"apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute", "metadata": {"name": "r"}, "spec": {"rules": [{"backendRefs": [{"name": "web"}]}]}}\n';
    assert.equal(fixed({ ...files, 'r.json': oneLine }, 'gateway-backend-unresolved', 'r.json', 'Add port: 80 (the only port of the Service)'), oneLine.replace('{"name": "web"}', '{"name": "web", "port": 80}'));
  });
});

describe('fixKeepsJson', () => {
  it('refuses an edit that leaves a JSON manifest invalid, and does not judge YAML or text that was not JSON', () => {
    const json = loadFile('a.json', '{"kind": "Service",\n "spec": {}}\n');
    const files = new Map([['a.json', json], ['a.yaml', loadFile('a.yaml', 'kind: Service\n')], ['bad.json', loadFile('bad.json', '{"kind": \n')]]);
    const at = (file: string, start: number, newText: string) => ({ title: 't', edits: [{ span: { file, start, end: start }, newText }] });
    assert.equal(fixKeepsJson(at('a.json', 20, '# comment\n'), files), false);
    assert.equal(fixKeepsJson(at('a.json', 30, '"type": "NodePort"'), files), true);
    assert.equal(fixKeepsJson(at('a.yaml', 0, '# comment\n'), files), true);
    assert.equal(fixKeepsJson(at('bad.json', 0, '# comment\n'), files), true);
  });
});

describe('"Ignore … for this object" on JSON manifests', () => {
  const ignore = (text: string): string => {
    const edit = ignoreObjectEdit(text, 'f.json#0', 'nodeport-duplicate', true);
    assert.ok(edit);
    const out = applyOffsetEdits(text, [edit]);
    JSON.parse(out);
    return out;
  };

  it('adds "annotations" with JSON quoting, on its own line when the entries are one per line', () => {
    assert.equal(ignore('{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a"}}'), '{"apiVersion": "v1", "kind": "Service", "metadata": {"annotations": {"kube-netlint.io/ignore": "nodeport-duplicate"}, "name": "a"}}');
    assert.equal(
      ignore('{\n  "apiVersion": "v1",\n  "kind": "Service",\n  "metadata": {\n    "name": "a"\n  }\n}\n'),
      '{\n  "apiVersion": "v1",\n  "kind": "Service",\n  "metadata": {\n    "annotations": {"kube-netlint.io/ignore": "nodeport-duplicate"},\n    "name": "a"\n  }\n}\n',
    );
  });

  it('adds the key to existing annotations, and extends an existing ignore list', () => {
    assert.equal(
      ignore('{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "annotations": {"team": "x"}}}'),
      '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "annotations": {"kube-netlint.io/ignore": "nodeport-duplicate", "team": "x"}}}',
    );
    assert.equal(ignore('{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "annotations": {}}}'), '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "annotations": {"kube-netlint.io/ignore": "nodeport-duplicate"}}}');
    assert.equal(
      ignore('{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "annotations": {"kube-netlint.io/ignore": "hostport-usage"}}}'),
      '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "annotations": {"kube-netlint.io/ignore": "hostport-usage,nodeport-duplicate"}}}',
    );
    assert.equal(ignore('{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "annotations": null}}'), '{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "annotations": {"kube-netlint.io/ignore": "nodeport-duplicate"}}}');
  });

  it('offers the object ignore but not the line comment in the language server', () => {
    const { findings, analysis } = lint({ 'a.json': serviceA, 'b.json': serviceB }, { rules: ['nodeport-duplicate'] });
    const finding = findings.find((f) => f.file === 'a.json')!.finding;
    const range = { start: { line: finding.span.start, character: 0 }, end: { line: finding.span.start, character: 0 } };
    const params = { textDocument: { uri: 'file:///a.json' }, range, context: { diagnostics: [{ range, source: 'kube-netlint', code: 'nodeport-duplicate', message: '', data: { key: 'k' } }] } } as unknown as CodeActionParams;
    const actions = codeActions(params, {
      file: 'a.json',
      text: serviceA,
      findingFor: (): Finding => finding,
      findingAt: () => undefined,
      analysedFile: (f) => analysis.files.get(f),
      currentText: (f) => analysis.files.get(f)?.text,
      uriOf: (f) => `file:///${f}`,
    });
    assert.deepEqual(actions.map((a) => a.title), ['Change nodePort 30080 to free port 30000', 'Ignore nodeport-duplicate for this object']);
    const [edit] = actions[1].edit!.changes!['file:///a.json'] as TextEdit[];
    assert.deepEqual(edit, { range: { start: { line: 3, character: 15 }, end: { line: 3, character: 15 } }, newText: '"annotations": {"kube-netlint.io/ignore": "nodeport-duplicate"}, ' });
  });
});
