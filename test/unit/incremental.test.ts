import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { IncrementalFile } from '../../server/out/core/load/incremental-file';
import { loadFile, LoadedFile } from '../../server/out/core/load/load-file';
import type { Finding } from '../../server/out/core/rules/rule';
import { IncrementalWorkspace } from '../../server/out/core/workspace/incremental';
import { claimedPorts } from '../../server/out/core/port-map/node-claims';
import { dedent } from '../helpers/lint';

// The incremental paths must give exactly what a full load / full analysis gives (no timing here: speed is
// measured by `npm run bench`). Edits are pseudo-random but deterministic (fixed seed).

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

/** A LoadedFile as comparable plain data (Maps and the line index spelled out). */
function plain(f: LoadedFile): string {
  const starts = Array.from({ length: f.lines.lineCount }, (_, i) => f.lines.lineStart(i + 1));
  return JSON.stringify({ o: f.objects, p: f.problems, s: [...f.suppressions].map(([k, v]) => [k, [...v]]), starts, text: f.text }, (_k, v: unknown) =>
    v instanceof Map ? [...v] : v instanceof Set ? [...v] : v);
}

const key = (f: Finding): string => JSON.stringify([f.ruleId, f.severity, f.message, f.span, f.object, f.related, f.fixes]);

const MULTI = dedent(`
  # leading comment
  apiVersion: v1
  kind: Service
  metadata: {name: a, namespace: team}
  spec:
    type: NodePort
    ports:
      - &p {name: http, port: 80, nodePort: 30080}
  ---
  apiVersion: apps/v1
  kind: DaemonSet
  metadata:
    name: agent
  spec:
    template:
      metadata: {labels: {app: agent}}
      spec:
        containers:
          - name: c
            image: "quay.io/x/agent:1.0" # kube-netlint-disable-next-line hostport-usage
            ports:
              - containerPort: 9100
                hostPort: 9100
  ...
  ---
  apiVersion: v1
  kind: List
  items:
    - apiVersion: v1
      kind: Service
      metadata: {name: b}
      spec: {type: NodePort, ports: [{port: 81, nodePort: 30080}]}
  ---
  apiVersion: v1
  kind: ConfigMap
  metadata: {name: cm}
  data:
    text: |
      --- not a marker inside a block scalar? it is at column 2
`);

describe('IncrementalFile', () => {
  it('equals loadFile after every edit, re-parsing one document when the edit stays inside it', () => {
    const rnd = random(42);
    const inserts = ['x', '', '\n', ': ', '---\n', '"', '- ', '#', '{', '7', '...\n'];
    let text = MULTI;
    const inc = new IncrementalFile('m.yaml', text);
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const pos = Math.floor(rnd() * (text.length + 1));
      const del = rnd() < 0.3 ? 1 + Math.floor(rnd() * 3) : 0;
      text = text.slice(0, pos) + inserts[Math.floor(rnd() * inserts.length)] + text.slice(pos + del);
      const update = inc.update(text);
      seen.add(update.reparsed);
      assert.equal(plain(update.loaded), plain(loadFile('m.yaml', text)), `edit ${i} at ${pos}`);
      if (i % 60 === 59) text = MULTI; // back to valid YAML now and then
    }
    assert.ok(seen.has('document') && seen.has('file'), `paths taken: ${[...seen]}`);
  });

  it('keeps spans of the documents after the edit pointing at the same text', () => {
    const inc = new IncrementalFile('m.yaml', MULTI);
    const at = MULTI.indexOf('nodePort: 30080') + 'nodePort: '.length;
    const text = MULTI.slice(0, at) + '3' + MULTI.slice(at); // 330080: inside document 0
    const update = inc.update(text);
    assert.equal(update.reparsed, 'document');
    assert.deepEqual(update.removed.map((o) => o.name), ['a']);
    const b = update.loaded.objects.find((o) => o.name === 'b');
    assert.ok(b && b.category === 'service');
    const np = b.ports[0].nodePort!;
    assert.equal(text.slice(np.span.start, np.span.end), '30080');
  });
});

describe('IncrementalWorkspace', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-incremental-'));
    const gen = spawnSync(process.execPath, [join(__dirname, '../../bench/gen-corpus.mjs'), '--files', '40', '--collisions', '4', '--hostport-collisions', '2', '--out', join(dir, 'c'), '--quiet']);
    assert.equal(gen.status, 0, String(gen.stderr));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the findings of a full analysis after every edit, re-checking only affected objects', () => {
    const root = join(dir, 'c');
    const paths = (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.ya?ml$/.test(f)).sort();
    const texts = new Map(paths.map((p) => [p, readFileSync(join(root, p), 'utf8')]));
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    for (const [p, t] of texts) ws.setText(p, t);
    assert.equal(ws.analyze().findings.length > 0, true);
    const rnd = random(7);
    const modes = new Set<string>();
    for (let i = 0; i < 120; i++) {
      const p = paths[Math.floor(rnd() * paths.length)];
      let t = texts.get(p)!;
      const ports = [...t.matchAll(/(nodePort|hostPort|port|containerPort|healthCheckNodePort): (\d+)/g)];
      const r = rnd();
      if (r < 0.5 && ports.length) {
        const m = ports[Math.floor(rnd() * ports.length)];
        const at = m.index! + m[0].length - 1 - Math.floor(rnd() * 2);
        t = t.slice(0, at) + String(Math.floor(rnd() * 10)) + t.slice(at + 1);
      } else if (r < 0.8) {
        const line = t.indexOf('\n', Math.floor(rnd() * t.length));
        t = line < 0 ? t + '\n' : t.slice(0, line + 1) + '\n' + t.slice(line + 1);
      } else {
        const at = Math.floor(rnd() * t.length);
        t = t.slice(0, at) + 'x' + t.slice(at);
      }
      texts.set(p, t);
      ws.setText(p, t);
      const run = ws.analyze();
      modes.add(ws.lastRun.mode);
      const fresh = analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG);
      assert.deepEqual(run.findings.map(key), fresh.findings.map(key), `edit ${i} in ${p} (${ws.lastRun.mode})`);
      // The taken ports the quick fixes avoid, carried from the model before the edit: those of a fresh model.
      const taken = (m: typeof fresh.model): number[] => [...claimedPorts(m, DEFAULT_CONFIG)].sort((a, b) => a - b);
      assert.deepEqual(taken(run.model), taken(fresh.model), `claimed ports after edit ${i} in ${p}`);
    }
    assert.ok(modes.has('incremental'), `modes: ${[...modes]}`);
  });

  it('stays incremental when the first render plan of a workspace with nothing to render hands over no renders', () => {
    const svc = (name: string, nodePort: number) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: ${nodePort}\n`;
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    ws.setLoaded('a.yaml', loadFile('a.yaml', svc('a', 30080)));
    ws.analyze();
    assert.equal(ws.lastRun.mode, 'full');
    // The language server's render plan found no kustomization and no chart.
    ws.setRenders({ renders: [], renderNotes: [] });
    ws.setLoaded('b.yaml', loadFile('b.yaml', svc('b', 30080)));
    const created = ws.analyze();
    assert.equal(ws.lastRun.mode, 'incremental');
    assert.deepEqual(created.findings.map((f) => [f.ruleId, f.span.file]), [['nodeport-duplicate', 'a.yaml'], ['nodeport-duplicate', 'b.yaml']]);
    assert.deepEqual(created.findings.map(key), analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG, { renders: [], renderNotes: [] }).findings.map(key));
    // A render note is something to show: that analysis is full.
    ws.setRenders({ renders: [], renderNotes: [{ ruleId: 'render-failed', severity: 'warning', message: 'kustomize is not on PATH', span: { file: 'k/kustomization.yaml', start: 0, end: 0 } }] });
    ws.analyze();
    assert.equal(ws.lastRun.mode, 'full');
  });

  it('moves a free-port quick fix when an edit elsewhere takes the port it proposed', () => {
    const svc = (name: string, port: number, nodePort: number) =>
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  ports:\n    - port: ${port}\n      nodePort: ${nodePort}\n`;
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    ws.setText('dup.yaml', `${svc('a', 80, 30100)}---\n${svc('b', 80, 30100)}`);
    ws.setText('c.yaml', svc('c', 81, 31000));
    const proposed = (): string[] => ws.analyze().findings.filter((f) => f.ruleId === 'nodeport-duplicate').map((f) => f.fixes[0].edits[0].newText);
    assert.deepEqual(proposed(), ['30000', '30000']);
    // Service c shares no port number with a or b, yet takes the port their fixes offered.
    ws.setText('c.yaml', svc('c', 81, 30000));
    assert.deepEqual(proposed(), ['30001', '30001']);
    assert.equal(ws.lastRun.mode, 'incremental');
    // And frees it again.
    ws.setText('c.yaml', svc('c', 81, 31000));
    assert.deepEqual(proposed(), ['30000', '30000']);
    assert.deepEqual(ws.analyze().findings.map(key), analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.map(key));
  });

  it('keeps free-port quick fixes distinct when an edit re-checks one of several findings that offer them', () => {
    const svc = (name: string, nodePort: number, label: string) =>
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  labels: {tier: ${label}}\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: ${nodePort}\n`;
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    ws.setText('a.yaml', svc('a', 40001, 'web'));
    ws.setText('b.yaml', svc('b', 40002, 'web'));
    const proposed = (): string[] => ws.analyze().findings.filter((f) => f.ruleId === 'nodeport-out-of-range').map((f) => `${f.object!.name}:${f.fixes[0].edits[0].newText}`);
    assert.deepEqual(proposed(), ['a:30000', 'b:30001']);
    // A label edit changes no port: b is re-checked alone, yet its fix must still skip the port a's fix offers.
    ws.setText('b.yaml', svc('b', 40002, 'api'));
    assert.deepEqual(proposed(), ['a:30000', 'b:30001']);
    assert.equal(ws.lastRun.mode, 'incremental');
    ws.setText('a.yaml', svc('a', 40001, 'api'));
    assert.deepEqual(proposed(), ['a:30000', 'b:30001']);
    // a comes into the range: b's fix takes the port a no longer offers.
    ws.setText('a.yaml', svc('a', 31000, 'api'));
    assert.deepEqual(proposed(), ['b:30000']);
    assert.equal(ws.lastRun.mode, 'incremental');
    assert.deepEqual(ws.analyze().findings.map(key), analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.map(key));
  });

  it('moves a hostPort quick fix up when an edit frees a Service port below the NodePort range', () => {
    const agent = `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers:\n        - name: agent\n          image: agent:1.0\n          ports:\n            - containerPort: 30500\n              hostPort: 30500\n`;
    const svc = (port: number) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: db\nspec:\n  ports:\n    - port: ${port}\n`;
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    ws.setText('agent.yaml', agent);
    ws.setText('db.yaml', svc(29999));
    const proposed = (): string[] => ws.analyze().findings.filter((f) => f.ruleId === 'host-port-in-nodeport-range').map((f) => f.fixes[0].edits[0].newText);
    assert.deepEqual(proposed(), ['29998']);
    ws.setText('db.yaml', svc(5432));
    assert.deepEqual(proposed(), ['29999']);
    assert.equal(ws.lastRun.mode, 'incremental');
    ws.setText('db.yaml', svc(29999));
    assert.deepEqual(proposed(), ['29998']);
    assert.deepEqual(ws.analyze().findings.map(key), analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.map(key));
  });

  it('re-checks an object the API server rejects when an edit makes it valid, and leaves it out again when it is rejected anew', () => {
    const svc = (name: string, nodePort: number, targetPort: number) =>
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      targetPort: ${targetPort}\n      nodePort: ${nodePort}\n`;
    const agent = (containerPort: number) =>
      `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers:\n        - name: agent\n          image: agent:1.0\n          ports:\n            - containerPort: ${containerPort}\n              hostPort: 30090\n`;
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    ws.setText('ab.yaml', `${svc('a', 30080, 8080)}---\n${svc('b', 30080, 8080)}`);
    ws.setText('c.yaml', svc('c', 30080, 70000)); // targetPort out of range: rejected
    ws.setText('d.yaml', svc('d', 30090, 8080));
    ws.setText('agent.yaml', agent(70000)); // containerPort out of range: rejected, so its hostPort takes nothing
    ws.analyze();
    const fresh = (): string[] => analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.map(key);
    const named = (rule: string): string[] => ws.analyze().findings.filter((f) => f.ruleId === rule).map((f) => `${f.object?.name}@${f.span.file}`).sort();
    const step = (file: string, text: string): void => {
      ws.setText(file, text);
      assert.deepEqual(ws.analyze().findings.map(key), fresh(), `after editing ${file}`);
      assert.equal(ws.lastRun.mode, 'incremental');
    };
    assert.deepEqual(named('nodeport-duplicate'), ['a@ab.yaml', 'b@ab.yaml']);
    assert.deepEqual(named('host-port-conflicts-nodeport'), []);
    // c becomes valid: it now shares 30080 with a and b.
    step('c.yaml', svc('c', 30080, 8080));
    assert.deepEqual(named('nodeport-duplicate'), ['a@ab.yaml', 'b@ab.yaml', 'c@c.yaml']);
    // A line above moves the rejected DaemonSet's spans: still rejected, still nothing about its hostPort.
    step('agent.yaml', `# moved\n${agent(70000)}`);
    assert.deepEqual(named('host-port-conflicts-nodeport'), []);
    // The DaemonSet becomes valid: its hostPort 30090 meets Service d's nodePort.
    step('agent.yaml', `# moved\n${agent(9000)}`);
    assert.deepEqual(named('host-port-conflicts-nodeport').length > 0, true);
    // Both rejected again: back to the first findings.
    step('agent.yaml', agent(70000));
    step('c.yaml', svc('c', 30080, 70000));
    assert.deepEqual(named('nodeport-duplicate'), ['a@ab.yaml', 'b@ab.yaml']);
    assert.deepEqual(named('host-port-conflicts-nodeport'), []);
  });

  it('follows an edit of where kube-proxy serves healthz (the component facts are kept across edits by content)', () => {
    const proxy = (bind: string) =>
      `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: kube-proxy\n  namespace: kube-system\nspec:\n  selector: {matchLabels: {k8s-app: kube-proxy}}\n  template:\n    metadata: {labels: {k8s-app: kube-proxy}}\n    spec:\n      hostNetwork: true\n      containers:\n        - name: kube-proxy\n          image: registry.k8s.io/kube-proxy:v1.31.0\n          command: [kube-proxy, --healthz-bind-address=${bind}]\n`;
    const pod = `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: probe\nspec:\n  selector: {matchLabels: {app: probe}}\n  template:\n    metadata: {labels: {app: probe}}\n    spec:\n      hostNetwork: true\n      containers:\n        - name: probe\n          image: probe:1.0\n          ports:\n            - containerPort: 10256\n`;
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    ws.setText('proxy.yaml', proxy('0.0.0.0:10256'));
    ws.setText('probe.yaml', pod);
    const reserved = (): string[] => ws.analyze().findings.filter((f) => f.ruleId === 'host-port-reserved' && f.object?.name === 'probe').map((f) => f.message);
    const fresh = (): string[] => analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.map(key);
    assert.equal(reserved().length, 1);
    ws.setText('proxy.yaml', proxy('0.0.0.0:10999'));
    assert.deepEqual(reserved(), []);
    assert.deepEqual(ws.analyze().findings.map(key), fresh());
    ws.setText('proxy.yaml', proxy('0.0.0.0:10256'));
    assert.equal(reserved().length, 1);
    assert.deepEqual(ws.analyze().findings.map(key), fresh());
  });

  it('gives the full analysis\' findings when several edits come between two analyses (a fast typist)', () => {
    const root = join(dir, 'c');
    const paths = (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.ya?ml$/.test(f)).sort();
    const texts = new Map(paths.map((p) => [p, readFileSync(join(root, p), 'utf8')]));
    const ws = new IncrementalWorkspace(DEFAULT_CONFIG);
    for (const [p, t] of texts) ws.setText(p, t);
    ws.analyze();
    const rnd = random(23);
    let incremental = 0;
    for (let i = 0; i < 60; i++) {
      // Up to four edits of one document (a port typed digit by digit) or of several files, then one analysis.
      const n = 1 + Math.floor(rnd() * 4);
      const p = paths[Math.floor(rnd() * paths.length)];
      for (let k = 0; k < n; k++) {
        const file = rnd() < 0.7 ? p : paths[Math.floor(rnd() * paths.length)];
        let t = texts.get(file)!;
        const ports = [...t.matchAll(/(nodePort|hostPort|port): (\d+)/g)];
        if (!ports.length) continue;
        const m = ports[Math.floor(rnd() * ports.length)];
        const at = m.index! + m[0].length - 1;
        t = t.slice(0, at) + String(Math.floor(rnd() * 10)) + t.slice(at + 1);
        texts.set(file, t);
        ws.setText(file, t);
      }
      const got = ws.analyze().findings.map(key);
      if (ws.lastRun.mode === 'incremental') incremental++;
      const want = analyze(ws.fileNames().map((f) => ws.get(f)!), DEFAULT_CONFIG).findings.map(key);
      assert.deepEqual(got, want, `round ${i} (${ws.lastRun.mode})`);
    }
    assert.ok(incremental > 30, `incremental runs: ${incremental}`);
  });
});
