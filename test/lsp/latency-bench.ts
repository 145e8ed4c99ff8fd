/**
 * Latency benchmark of the language server (a measurement, not a test: nothing is asserted).
 *   node test-out/lsp/latency-bench.js WORKSPACE [--server dist/server.js] [--edits 20]
 * Prints JSON: start → first status (initial analysis of every file pushed), and the median / p90 of
 * one-character didChange (incremental: insert or delete a newline at the top of a file that has
 * findings, so its diagnostics move and are re-published) → publishDiagnostics of the edited file.
 * Edits are spaced 400 ms apart (an isolated keystroke, not a typing burst).
 * Workspace: `node /work/shared/bench/gen-corpus.mjs --preset medium --out /tmp/medium`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TestClient, uriOf } from './lsp-client';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const arg = (name: string, fallback: string): string => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const workspace = resolve(args.find((a) => !a.startsWith('--') && args[args.indexOf(a) - 1] !== '--server' && args[args.indexOf(a) - 1] !== '--edits') ?? '/tmp/medium');
  const server = resolve(arg('--server', 'dist/server.js'));
  const edits = Number(arg('--edits', '20'));
  const t0 = performance.now();
  const client = await TestClient.start([workspace], { server });
  const tInit = performance.now();
  await until(() => client.statuses.length > 0, 120000);
  const initial = performance.now() - t0;
  const status = client.statuses[0] as { files: number; objects: number; findings: number; durationMs: number };
  // A file with findings (from the diagnostics already pushed).
  const [uri] = [...client.diagnostics.entries()].find(([, d]) => d.length > 0) ?? [];
  if (!uri) throw new Error('no file with findings in the workspace');
  const path = new URL(uri).pathname;
  const text = readFileSync(path, 'utf8');
  client.open(path, text);
  await sleep(500);
  const times: number[] = [];
  for (let i = 0; i < edits; i++) {
    const before = client.publishCount.get(uriOf(path)) ?? 0;
    const insert = i % 2 === 0;
    const started = performance.now();
    client.change(path, [insert
      ? { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '\n' }
      : { range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, text: '' }]);
    await until(() => (client.publishCount.get(uriOf(path)) ?? 0) > before, 30000);
    times.push(performance.now() - started);
    await sleep(400);
  }
  await client.stop();
  times.sort((a, b) => a - b);
  const round = (n: number): number => Math.round(n * 10) / 10;
  console.log(JSON.stringify({
    server, workspace, files: status.files, objects: status.objects, findings: status.findings,
    initializeMs: round(tInit - t0), initialDiagnosticsMs: round(initial), serverAnalysisMs: status.durationMs,
    serverLog: client.logs.filter((l) => / YAML files /.test(l)),
    editedFile: path, edits, editToPublishMedianMs: round(times[Math.floor(times.length / 2)]), editToPublishP90Ms: round(times[Math.floor(times.length * 0.9)]),
    editToPublishMs: times.map(round),
  }));
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
async function until(cond: () => boolean, timeoutMs: number): Promise<void> {
  const start = performance.now();
  while (!cond()) {
    if (performance.now() - start > timeoutMs) throw new Error('timeout');
    await sleep(1);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
