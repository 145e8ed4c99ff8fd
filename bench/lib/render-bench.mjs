// render-bench.mjs — the render section of `npm run bench`: a generated workspace of Helm charts and kustomize
// overlays (default 50 + 50, each with a planted nodePort collision set in a values file or an overlay patch).
//   * CLI: `kube-netlint --format json .` against the same `helm template` / `kubectl kustomize` commands run back
//     to back in the same run (target: at most 1.5×);
//   * editor: one values file saved (written + workspace/didChangeWatchedFiles) → the language server re-renders
//     that release only and publishes the values file's diagnostics (target: median under 600 ms).
// helm and kubectl come from test/render/install-renderers.sh (the cache folder outside the clone).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const {
  createProtocolConnection, InitializedNotification, InitializeRequest, PublishDiagnosticsNotification, ShutdownRequest, ExitNotification,
  StreamMessageReader, StreamMessageWriter, DidChangeWatchedFilesNotification,
} = createRequire(import.meta.url)('vscode-languageserver-protocol/node');

const svc = (name, nodePort, extra = '') =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - name: http\n      port: 80\n${extra}      nodePort: ${nodePort}\n`;
const deployment = (name, port) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec:\n      containers:\n        - name: app\n          image: nginx:1.27\n          ports:\n            - name: http\n              containerPort: ${port}\n`;

/**
 * Writes `charts` charts (charts/app-N: Service + Deployment templates, values.yaml with service.nodePort) and
 * `overlays` overlays (apps/app-N/base + overlays/prod with a nodePort patch) into `dir`. Chart i's nodePort is
 * 31000+i; every 10th chart's values.yaml repeats the previous chart's nodePort, every 10th overlay's patch moves
 * its nodePort onto the previous overlay's: planted collisions found only through rendering.
 */
export function writeRenderCorpus(dir, { charts = 50, overlays = 50 } = {}) {
  fs.rmSync(dir, { recursive: true, force: true });
  const write = (rel, text) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  const planted = [];
  for (let i = 0; i < charts; i++) {
    const name = `app-${i}`;
    const nodePort = i % 10 === 9 ? 31000 + i - 1 : 31000 + i;
    if (i % 10 === 9) planted.push({ file: `charts/${name}/values.yaml`, nodePort });
    write(`charts/${name}/Chart.yaml`, `apiVersion: v2\nname: ${name}\nversion: 0.1.0\n`);
    write(`charts/${name}/values.yaml`, `replicaCount: 2\nimage:\n  repository: nginx\n  tag: "1.27"\nservice:\n  type: NodePort\n  port: 80\n  nodePort: ${nodePort}\ncontainerPort: 8080\n`);
    write(`charts/${name}/templates/_helpers.tpl`, `{{- define "app.labels" -}}\napp: {{ .Release.Name }}\n{{- end }}\n`);
    write(`charts/${name}/templates/service.yaml`,
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n  labels:\n    {{- include "app.labels" . | nindent 4 }}\nspec:\n  type: {{ .Values.service.type }}\n  selector:\n    {{- include "app.labels" . | nindent 4 }}\n  ports:\n    - name: http\n      port: {{ .Values.service.port }}\n      targetPort: http\n      nodePort: {{ .Values.service.nodePort }}\n');
    write(`charts/${name}/templates/deployment.yaml`,
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  replicas: {{ .Values.replicaCount }}\n  selector:\n    matchLabels:\n      {{- include "app.labels" . | nindent 6 }}\n  template:\n    metadata:\n      labels:\n        {{- include "app.labels" . | nindent 8 }}\n    spec:\n      containers:\n        - name: app\n          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"\n          ports:\n            - name: http\n              containerPort: {{ .Values.containerPort }}\n');
  }
  for (let i = 0; i < overlays; i++) {
    const name = `svc-${i}`;
    write(`apps/${name}/base/kustomization.yaml`, 'resources:\n  - service.yaml\n  - deployment.yaml\n');
    write(`apps/${name}/base/service.yaml`, svc(name, 32000 + i));
    write(`apps/${name}/base/deployment.yaml`, deployment(name, 8080));
    const target = i % 10 === 9 ? 32000 + i - 1 + 500 : 32000 + i + 500;
    if (i % 10 === 9) planted.push({ file: `apps/${name}/overlays/prod/nodeport.yaml`, nodePort: target });
    write(`apps/${name}/overlays/prod/kustomization.yaml`, `namespace: prod\nnamePrefix: prod-\nresources:\n  - ../../base\npatches:\n  - path: nodeport.yaml\n`);
    write(`apps/${name}/overlays/prod/nodeport.yaml`, `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  ports:\n    - name: http\n      port: 80\n      nodePort: ${target}\n`);
  }
  // One cluster: the overlays' objects and the charts' releases land in one cluster group.
  write('.kube-netlint.yaml', 'clusters:\n  prod: ["**"]\n');
  return { charts, overlays, planted };
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]; };
const stat = (a) => ({ median: +median(a).toFixed(1), p95: +pct(a, 95).toFixed(1), min: +Math.min(...a).toFixed(1), max: +Math.max(...a).toFixed(1), n: a.length });

/**
 * CPU time (ms) a process and its waited-for children used so far: utime + stime + cutime + cstime of
 * /proc/<pid>/stat (Linux; helm and kustomize runs are children of the language server, reaped by it, so their CPU
 * counts here once they ended). Undefined elsewhere.
 */
function cpuMs(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    // After the command name: state is field 3, utime 14, stime 15, cutime 16, cstime 17 (1-based, proc(5)).
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return (ticks * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function timedRun(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const p = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('exit', (code) => resolve({ ms: performance.now() - started, code, out, err }));
  });
}

/** Runs the render section; returns its results. */
export async function renderSection({ root, benchDir, reps, nEdits, log }) {
  const bin = spawnSync('bash', [path.join(root, 'test/render/install-renderers.sh')], { encoding: 'utf8' }).stdout.trim().split('\n').pop();
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
  // Outside the clone's .bench/ (hidden folders are not searched for manifests).
  const dir = path.join(os.tmpdir(), `kube-netlint-bench-render-${process.pid}`);
  const shape = writeRenderCorpus(dir);
  const helm = path.join(bin, 'helm');
  const kubectl = path.join(bin, 'kubectl');
  const sandbox = fs.mkdtempSync(path.join(benchDir, 'render-sandbox-'));
  const toolEnv = { PATH: sandbox, HOME: sandbox, HELM_CONFIG_HOME: sandbox, HELM_CACHE_HOME: sandbox, HELM_DATA_HOME: sandbox, KUBECONFIG: path.join(sandbox, 'kubeconfig') };
  fs.writeFileSync(toolEnv.KUBECONFIG, '');
  const baseline = [];
  const cli = [];
  let found;
  for (let r = 0; r < reps; r++) {
    // The same commands the CLI runs for the main renders, back to back, each a fresh process.
    let sum = 0;
    for (let i = 0; i < shape.charts; i++) sum += (await timedRun(helm, ['template', `app-${i}`, path.join(dir, 'charts', `app-${i}`), '--namespace', 'default', '--skip-tests'], { cwd: sandbox, env: toolEnv })).ms;
    for (let i = 0; i < shape.overlays; i++) sum += (await timedRun(kubectl, ['kustomize', path.join(dir, 'apps', `svc-${i}`, 'overlays/prod')], { cwd: sandbox, env: toolEnv })).ms;
    baseline.push(sum);
    const run = await timedRun(process.execPath, [path.join(root, 'bin/kube-netlint.js'), '--format', 'json', '.'], { cwd: dir, env });
    cli.push(run.ms);
    if (!found) {
      const findings = JSON.parse(run.out).findings.filter((f) => f.ruleId === 'nodeport-duplicate');
      const missing = shape.planted.filter((p) => !findings.some((f) => f.file === p.file));
      found = { planted: shape.planted.length, missing: missing.map((m) => m.file), stderr: run.err.trim().split('\n').pop() };
    }
    log(`render rep ${r + 1}: ${shape.charts} helm template + ${shape.overlays} kubectl kustomize back to back ${sum.toFixed(0)} ms, kube-netlint ${run.ms.toFixed(0)} ms`);
  }
  fs.rmSync(sandbox, { recursive: true, force: true });
  const edits = await editLatency({ root, dir, env, nEdits, log });
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    corpus: { charts: shape.charts, overlays: shape.overlays },
    commandsBackToBack: stat(baseline), cli: stat(cli), ratio: +(median(cli) / median(baseline)).toFixed(2),
    ratioPerRep: cli.map((x, i) => +(x / baseline[i]).toFixed(2)), findings: found, lsp: edits,
  };
}

/** The language server part alone (`npm run bench -- --only render-lsp`): a fresh corpus, `nEdits` values-file saves. */
export async function renderLspSection({ root, nEdits, log }) {
  const bin = spawnSync('bash', [path.join(root, 'test/render/install-renderers.sh')], { encoding: 'utf8' }).stdout.trim().split('\n').pop();
  const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` };
  const dir = path.join(os.tmpdir(), `kube-netlint-bench-render-${process.pid}`);
  const shape = writeRenderCorpus(dir);
  try {
    return { corpus: { charts: shape.charts, overlays: shape.overlays }, lsp: await editLatency({ root, dir, env, nEdits, log }) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Language server on the corpus: save one values file (toggling a planted collision) → its diagnostics. Records
 * wall time and the CPU time the server and its helm runs used per save (the machine may be shared: the load
 * average before and after is recorded beside them).
 */
async function editLatency({ root, dir, env, nEdits, log }) {
  const proc = spawn(process.execPath, [path.join(root, 'dist/server.js'), '--stdio'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const conn = createProtocolConnection(new StreamMessageReader(proc.stdout), new StreamMessageWriter(proc.stdin));
  const waiters = [];
  const lastStatus = { value: undefined };
  conn.onNotification(PublishDiagnosticsNotification.type, (p) => { for (const w of waiters.splice(0)) if (!w(p)) waiters.push(w); });
  conn.onNotification('kubeNetlint/status', (s) => { lastStatus.value = s; serverLog.push(`${Math.round(performance.now())} status: analysis ${s.durationMs} ms, ${s.findings} findings`); for (const w of waiters.splice(0)) if (!w({ status: s })) waiters.push(w); });
  conn.onRequest('workspace/configuration', (p) => p.items.map(() => null));
  conn.onRequest('client/registerCapability', () => null);
  const serverLog = [];
  conn.onNotification('window/logMessage', (p) => serverLog.push(`${Math.round(performance.now())} ${p.message}`));
  conn.listen();
  const wait = (accept, ms = 60000) => new Promise((res, rej) => {
    const t = setTimeout(() => rej(new Error('timeout')), ms);
    waiters.push((e) => (accept(e) ? (clearTimeout(t), res(e), true) : false));
  });
  const started = performance.now();
  await conn.sendRequest(InitializeRequest.type, { processId: process.pid, rootUri: pathToFileURL(dir).href, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'render' }], capabilities: { workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: false } } }, initializationOptions: { workspaceTrusted: true, watchesFiles: true } });
  await conn.sendNotification(InitializedNotification.type, {});
  const all = (s) => s?.render?.startsWith('rendered 50 kustomizations, 50 Helm releases');
  if (!all(lastStatus.value)) await wait((e) => all(e.status ?? lastStatus.value));
  const initial = performance.now() - started;
  const file = path.join(dir, 'charts/app-0/values.yaml');
  const uri = pathToFileURL(file).href;
  const original = fs.readFileSync(file, 'utf8');
  const times = [];
  const cpu = [];
  const loadBefore = os.loadavg().map((x) => +x.toFixed(2));
  // Let the initial analyses settle before measuring.
  await new Promise((r) => setTimeout(r, 1000));
  for (let i = 0; i < nEdits; i++) {
    // Odd edits plant a collision with app-1's nodePort, even ones remove it: the values file's diagnostics change every time.
    const collide = i % 2 === 0;
    // A comment with the save's number makes every text new, as a user's saves are: helm's main render always runs
    // (the server's render cache could otherwise answer a text seen two saves before).
    fs.writeFileSync(file, `${collide ? original.replace('nodePort: 31000', 'nodePort: 31001') : original}# save ${i}\n`);
    const t0 = performance.now();
    const c0 = cpuMs(proc.pid);
    const done = wait((e) => e.uri === uri && e.diagnostics.some((d) => d.code === 'nodeport-duplicate') === collide);
    await conn.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri, type: 2 }] });
    await done;
    times.push(performance.now() - t0);
    // Work the save started that ends after the diagnostics (a second analysis, the helm runs) counts too.
    await new Promise((r) => setTimeout(r, 400));
    const c1 = cpuMs(proc.pid);
    if (c0 !== undefined && c1 !== undefined) cpu.push(c1 - c0);
    serverLog.push(`${Math.round(performance.now())} --- edit ${i} sent at ${Math.round(t0)}, diagnostics after ${Math.round(performance.now() - t0)} ms`);
  }
  fs.writeFileSync(file, original);
  await conn.sendRequest(ShutdownRequest.type);
  await conn.sendNotification(ExitNotification.type);
  proc.kill();
  if (process.env.KNL_BENCH_LSP_LOG) fs.writeFileSync(process.env.KNL_BENCH_LSP_LOG, serverLog.join('\n'));
  const loadAfter = os.loadavg().map((x) => +x.toFixed(2));
  log(`render lsp: all renders in ${initial.toFixed(0)} ms, values file save → diagnostics median ${median(times).toFixed(0)} ms (p95 ${pct(times, 95).toFixed(0)}), CPU per save median ${cpu.length ? median(cpu).toFixed(0) : '?'} ms, load ${loadBefore.join(' ')} → ${loadAfter.join(' ')}`);
  return { initialAllRendered: +initial.toFixed(0), valuesEdit: stat(times), ...(cpu.length ? { valuesEditCpu: stat(cpu) } : {}), loadavg: { before: loadBefore, after: loadAfter } };
}
