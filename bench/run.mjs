#!/usr/bin/env node
// run.mjs — `npm run bench`: kube-netlint side by side with the parse baseline and the peers, in ONE run
// (absolute times drift on shared machines; the targets are ratios within a run).
//
//   node bench/run.mjs [options]   — `node bench/run.mjs --help` lists them (OPTIONS below)
//
// Corpora are generated once by bench/gen-corpus.mjs (a copy of shared/bench/gen-corpus.mjs) into .bench/
// (git-ignored). Every measured command is a fresh process; repetitions alternate between the tools.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkFindings } from './lib/check-findings.mjs';
import { yamlFiles } from './lib/yaml-files.mjs';
import { middleLine, startSession } from './lib/lsp-session.mjs';
import { renderLspSection, renderSection } from './lib/render-bench.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

// ---------------------------------------------------------------- options
// The one list of options: parsed strictly (an unknown flag or a missing value is an error, exit 2, before anything
// runs — a mistyped flag must not start a full benchmark) and printed by --help. A flag used below but not listed
// here throws when read, so a new option cannot slip past the list.
const SECTIONS = ['startup', 'cli', 'cache', 'hostile', 'open-first', 'lsp', 'render', 'render-lsp'];
const OPTIONS = {
  reps: { type: 'string', value: 'N', help: 'repetitions of each timed command (default 3)' },
  edits: { type: 'string', value: 'N', help: 'edits timed in the language server (default 20)' },
  only: { type: 'string', value: 'SECTION', help: `run one section: ${SECTIONS.join(', ')}` },
  out: { type: 'string', value: 'FILE', help: 'where the results go (default .bench/results.json)' },
  'no-large': { type: 'boolean', help: 'skip the 10,000-file corpus (CLI vs baselines, peak RSS, open-first in the editor)' },
  peers: { type: 'boolean', help: 'yaml-language-server on the 2,000-document file (needs bench/node_modules: --install-peers)' },
  monokle: { type: 'boolean', help: '@monokle/validation over the medium corpus, once (about 100 s)' },
  'install-peers': { type: 'boolean', help: '`npm install` in bench/ first (benchmark-only dependencies, never the product\'s)' },
  build: { type: 'boolean', help: 'run `npm run build` first (also done when dist/ is missing)' },
  help: { type: 'boolean', short: 'h', help: 'print this help and exit' },
};
const usage = () => [
  'usage: node bench/run.mjs [options]   (npm run bench -- [options])',
  '',
  'kube-netlint side by side with the parse baseline and the peers, in one run; results in .bench/results.json.',
  '',
  ...Object.entries(OPTIONS).map(([name, o]) => `  ${`--${name}${o.value ? ` ${o.value}` : ''}${o.short ? `, -${o.short}` : ''}`.padEnd(20)} ${o.help}`),
  '',
].join('\n');
let parsed;
try {
  parsed = parseArgs({ args: process.argv.slice(2), options: Object.fromEntries(Object.entries(OPTIONS).map(([n, o]) => [n, { type: o.type, ...(o.short ? { short: o.short } : {}) }])), strict: true, allowPositionals: false }).values;
} catch (err) {
  process.stderr.write(`bench/run.mjs: ${err.message}\n\n${usage()}`);
  process.exit(2);
}
if (parsed.help) {
  process.stdout.write(usage());
  process.exit(0);
}
/** Exits 2 with `message` (a bad option value), before anything runs. */
const badOption = (message) => {
  process.stderr.write(`bench/run.mjs: ${message}\n\n${usage()}`);
  process.exit(2);
};
const declared = (n) => {
  const name = n.replace(/^--/, '');
  if (!(name in OPTIONS)) throw new Error(`bench/run.mjs reads option ${n}, which OPTIONS does not list`);
  return name;
};
const arg = (n, d) => parsed[declared(n)] ?? d;
const has = (n) => parsed[declared(n)] === true;
const count = (n, d) => {
  const text = arg(n, String(d));
  if (!/^[1-9]\d*$/.test(text)) badOption(`${n} takes a positive integer, not "${text}"`);
  return Number(text);
};
const reps = count('--reps', 3);
const nEdits = count('--edits', 20);
const only = arg('--only');
if (only !== undefined && !SECTIONS.includes(only)) badOption(`--only takes one of ${SECTIONS.join(', ')}, not "${only}"`);
const outFile = path.resolve(root, arg('--out', '.bench/results.json'));
const benchDir = path.join(root, '.bench');
const node = process.execPath;
const log = (m) => process.stderr.write(`[bench] ${m}\n`);

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN; };
const pct = (a, p) => { const s = [...a].sort((x, y) => x - y); return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]; };
const stat = (a) => ({ median: +median(a).toFixed(1), min: +Math.min(...a).toFixed(1), max: +Math.max(...a).toFixed(1), n: a.length });

// ---------------------------------------------------------------- setup
if (!fs.existsSync(path.join(root, 'dist/cli.js')) || !fs.existsSync(path.join(root, 'dist/server.js')) || has('--build')) {
  log('building (npm run build)');
  const b = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const peersDir = path.join(root, 'bench');
if (has('--install-peers')) {
  log('installing benchmark peers into bench/node_modules');
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: peersDir, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const yamlLs = path.join(peersDir, 'node_modules/yaml-language-server/bin/yaml-language-server');
const haveYamlLs = fs.existsSync(yamlLs);
const haveMonokle = fs.existsSync(path.join(peersDir, 'node_modules/@monokle/validation'));

function corpus(name, genArgs) {
  const dir = path.join(benchDir, 'corpus', name);
  if (!fs.existsSync(path.join(dir, 'corpus-manifest.json'))) {
    log(`generating corpus ${name} (${genArgs.join(' ')})`);
    const r = spawnSync(node, [path.join(peersDir, 'gen-corpus.mjs'), ...genArgs, '--out', dir, '--force', '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) throw new Error(`gen-corpus failed for ${name}`);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'corpus-manifest.json'), 'utf8'));
  return { name, dir, manifest };
}

/** Runs a command to completion; wall ms (spawn → exit), peak RSS MB of the whole process (all threads), stdout. */
function timed(cmd, cmdArgs, cwd) {
  return new Promise((resolve, reject) => {
    const rssFile = path.join(os.tmpdir(), `knl-bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`);
    const started = performance.now();
    const p = spawn(cmd, ['--require', path.join(peersDir, 'lib/report-rss.cjs'), ...cmdArgs], { cwd, env: { ...process.env, KNL_BENCH_RSS_FILE: rssFile }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    p.stdout.on('data', (d) => out.push(d));
    p.stderr.on('data', (d) => { err += d; });
    p.on('error', reject);
    p.on('exit', (code) => {
      const ms = performance.now() - started;
      let rss = null;
      try { rss = Math.round(Number(fs.readFileSync(rssFile, 'utf8')) / 1024); fs.rmSync(rssFile); } catch { /* no report */ }
      if (code !== 0 && code !== 1) reject(new Error(`${cmdArgs.join(' ')} exited ${code}: ${err.slice(0, 500)}`));
      else resolve({ ms, rssMB: rss, stdout: Buffer.concat(out).toString('utf8') });
    });
  });
}

const results = { date: new Date().toISOString(), machine: machineInfo(), reps, sections: {} };
/** Written after every section, so a later failure never loses what was measured. */
function save() {
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, JSON.stringify(results, null, 2) + '\n');
}

function machineInfo() {
  const cpus = os.cpus();
  return { cpu: cpus[0]?.model, cores: cpus.length, memGB: Math.round(os.totalmem() / 2 ** 30), node: process.version, os: `${os.type()} ${os.release()}`, loadavg: os.loadavg().map((x) => +x.toFixed(2)) };
}

// ---------------------------------------------------------------- start-up
async function startup() {
  const version = [], bare = [];
  for (let i = 0; i < Math.max(5, reps); i++) {
    bare.push((await timed(node, ['-e', '0'], root)).ms);
    version.push((await timed(node, [path.join(root, 'bin/kube-netlint.js'), '--version'], root)).ms);
  }
  results.sections.startup = { nodeBare: stat(bare), version: stat(version) };
}

/**
 * Reads every YAML file of `dir` once, untimed, so the command timed next finds them in the page cache: the
 * kernel reclaims idle page cache here (kdamond), and whichever command came first paid the disk reads for
 * all (the events baseline, first in each repetition, came out 2–6× its usual time in full runs).
 */
function warmPageCache(dir) {
  for (const file of yamlFiles(dir)) fs.readFileSync(file);
}

// ---------------------------------------------------------------- CLI vs baseline
async function cli(c) {
  const base = [], browser = [], run = [], baseRss = [], runRss = [], events = [];
  let check;
  for (let i = 0; i < reps; i++) {
    warmPageCache(c.dir);
    const e = await timed(node, [path.join(peersDir, 'lib/events-baseline.mjs'), c.dir], root);
    events.push(e.ms);
    warmPageCache(c.dir);
    const b = await timed(node, [path.join(peersDir, 'lib/parse-baseline.mjs'), c.dir], root);
    base.push(b.ms); baseRss.push(b.rssMB);
    warmPageCache(c.dir);
    const r = await timed(node, [path.join(root, 'bin/kube-netlint.js'), '--format', 'json', '.'], c.dir);
    run.push(r.ms); runRss.push(r.rssMB);
    if (!check) check = checkFindings(c.manifest, JSON.parse(r.stdout));
    if (i === 0) browser.push((await timed(node, [path.join(peersDir, 'lib/parse-baseline.mjs'), c.dir, '--variant', 'browser'], root)).ms);
    log(`${c.name} rep ${i + 1}: js-yaml events ${e.ms.toFixed(0)} ms, yaml baseline ${b.ms.toFixed(0)} ms, cli ${r.ms.toFixed(0)} ms (${r.rssMB} MB)`);
  }
  results.sections[`cli-${c.name}`] = {
    corpus: c.manifest.totals, eventsBaseline: stat(events), baseline: stat(base), baselineBrowserBuild: stat(browser), cli: stat(run),
    ratio: +(median(run) / median(base)).toFixed(2), ratioEvents: +(median(run) / median(events)).toFixed(2),
    ratioEventsPerRep: run.map((x, i) => +(x / events[i]).toFixed(2)),
    cliPeakRssMB: Math.max(...runRss), baselinePeakRssMB: Math.max(...baseRss),
    findings: check,
  };
}

// ---------------------------------------------------------------- reopen: the parse cache
async function cache(c) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'knl-bench-cache-'));
  const cacheFile = path.join(dir, 'cli.cache');
  const cli = path.join(root, 'bin/kube-netlint.js');
  const cold = [], warm = [], changed = [], lspCold = [], lspWarm = [];
  let same = true;
  try {
    const first = await timed(node, [cli, '--format', 'json', '--cache', '--cache-location', cacheFile, '.'], c.dir); // fills the cache
    for (let i = 0; i < reps; i++) {
      const a = await timed(node, [cli, '--format', 'json', '.'], c.dir);
      const b = await timed(node, [cli, '--format', 'json', '--cache', '--cache-location', cacheFile, '.'], c.dir);
      cold.push(a.ms); warm.push(b.ms);
      same &&= a.stdout === b.stdout && a.stdout === first.stdout;
      log(`cache ${c.name} rep ${i + 1}: cold ${a.ms.toFixed(0)} ms, warm ${b.ms.toFixed(0)} ms`);
    }
    // One file changed since the cache was filled (a comment line added): that file is parsed again and the whole
    // workspace analysed again (the stored findings are for other inputs), the other files come from the cache.
    const copy = path.join(dir, 'changed');
    fs.cpSync(c.dir, copy, { recursive: true });
    const edited = yamlFiles(copy).next().value;
    const changedCache = path.join(dir, 'changed.cache');
    await timed(node, [cli, '--format', 'json', '--cache', '--cache-location', changedCache, '.'], copy);
    for (let i = 0; i < reps; i++) {
      fs.appendFileSync(edited, `\n# edited ${i}\n`);
      const r = await timed(node, [cli, '--format', 'json', '--cache', '--cache-location', changedCache, '.'], copy);
      changed.push(r.ms);
      same &&= r.stdout === first.stdout;
      log(`cache ${c.name} rep ${i + 1}: one file changed ${r.ms.toFixed(0)} ms`);
    }
    for (let i = 0; i < reps; i++) {
      const storage = fs.mkdtempSync(path.join(dir, 'storage-'));
      for (const [bucket, label] of [[lspCold, 'cold'], [lspWarm, 'warm']]) {
        const s = await startSession({ ...ours(), folder: c.dir, initializationOptions: { cacheFolder: storage } });
        bucket.push((await s.initial()).ms);
        await s.stop();
        log(`cache lsp ${c.name} rep ${i + 1}: ${label} initial ${bucket[bucket.length - 1].toFixed(0)} ms`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  results.sections[`cache-${c.name}`] = {
    cliCold: stat(cold), cliWarm: stat(warm), cliRatio: +(median(warm) / median(cold)).toFixed(2), cliRatioPerRep: warm.map((x, i) => +(x / cold[i]).toFixed(2)),
    cliChanged: stat(changed), cliChangedRatio: +(median(changed) / median(cold)).toFixed(2),
    lspCold: stat(lspCold), lspWarm: stat(lspWarm), lspRatio: +(median(lspWarm) / median(lspCold)).toFixed(2), lspRatioPerRep: lspWarm.map((x, i) => +(x / lspCold[i]).toFixed(2)),
    identicalFindings: same,
  };
}

// ---------------------------------------------------------------- hostile input: aliases, nesting
function hostileCorpus() {
  const dir = path.join(benchDir, 'corpus', 'hostile');
  fs.mkdirSync(dir, { recursive: true });
  const aliases = path.join(dir, 'aliases-20000.yaml');
  if (!fs.existsSync(aliases)) {
    const items = ['- &a {apiVersion: v1, kind: ConfigMap, metadata: {name: shared}, data: {k: v}}', ...Array(19_999).fill('- *a')];
    fs.writeFileSync(aliases, `apiVersion: v1\nkind: List\nitems:\n${items.join('\n')}\n`);
  }
  const deep = path.join(dir, 'nested-900.yaml');
  if (!fs.existsSync(deep)) fs.writeFileSync(deep, `${'['.repeat(900)}${']'.repeat(900)}\n---\n${'['.repeat(900)}${']'.repeat(900)}\n`);
  return { aliases, deep };
}

async function hostile() {
  const { aliases, deep } = hostileCorpus();
  const cli = path.join(root, 'bin/kube-netlint.js');
  const out = {};
  for (const [name, file] of [['aliases', aliases], ['nested', deep]]) {
    const ms = [];
    let findings;
    for (let i = 0; i < Math.max(3, reps); i++) {
      const r = await timed(node, [cli, '--format', 'json', path.basename(file)], path.dirname(file));
      ms.push(r.ms);
      findings = JSON.parse(r.stdout).findings.filter((f) => f.ruleId === 'yaml-syntax').map((f) => `${f.file}:${f.line}`);
    }
    const bare = [];
    for (let i = 0; i < Math.max(3, reps); i++) bare.push((await timed(node, [cli, '--version'], root)).ms);
    out[name] = { bytes: fs.statSync(file).size, cli: stat(ms), overStartup: +(median(ms) - median(bare)).toFixed(0), yamlSyntax: findings };
    log(`hostile ${name}: ${median(ms).toFixed(0)} ms`);
  }
  // Scale: one file of 150,000 objects (a stack overflow in buildModel), 50,000 NodePort Services sharing the
  // 2,768 nodePorts of the default range (collision lists grew with the square of the claims). One run each:
  // their time is mostly the YAML parse.
  for (const [name, count, doc] of [
    ['objects-150000', 150_000, (i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-${i}\n`],
    ['nodeports-50000', 50_000, (i) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: svc-${i}\nspec:\n  type: NodePort\n  selector: {app: a${i}}\n  ports:\n  - port: 80\n    nodePort: ${30000 + (i % 2768)}\n`],
  ]) {
    const file = path.join(benchDir, 'corpus', 'hostile', `${name}.yaml`);
    if (!fs.existsSync(file)) fs.writeFileSync(file, Array.from({ length: count }, (_, i) => doc(i)).join('---\n'));
    const r = await timed(node, [cli, '--max-file-size', '0', '--format', 'json', path.basename(file)], path.dirname(file));
    const findings = JSON.parse(r.stdout).findings;
    out[name] = { bytes: fs.statSync(file).size, objects: count, ms: +r.ms.toFixed(0), peakRssMB: r.rssMB, findings: findings.length, maxRelated: findings.reduce((m, f) => Math.max(m, f.related.length), 0) };
    log(`hostile ${name}: ${r.ms.toFixed(0)} ms, ${r.rssMB} MB`);
  }
  results.sections.hostile = out;
}

// ---------------------------------------------------------------- the open file first (large workspace)
async function openFirst(c) {
  // The open file: one with a finding of its own (hostport-usage: found in the file alone) and a cross-file
  // collision (found only when the whole workspace is read), so both steps show in its diagnostics.
  const cliOut = JSON.parse((await timed(node, [path.join(root, 'bin/kube-netlint.js'), '--format', 'json', '.'], c.dir)).stdout);
  const byFile = (rule) => new Set(cliOut.findings.filter((f) => f.ruleId === rule).map((f) => f.file));
  const own = byFile('hostport-usage');
  const chosen = [...byFile('hostport-conflict')].find((f) => own.has(f)) ?? [...byFile('nodeport-duplicate')][0] ?? cliOut.findings[0].file;
  const file = path.join(c.dir, chosen);
  const text = fs.readFileSync(file, 'utf8');
  const expected = cliOut.findings.filter((f) => f.file === chosen).length;
  const opened = [], full = [], rss = [];
  let progress, counts;
  for (let i = 0; i < reps; i++) {
    const s = await startSession({ ...ours(), folder: c.dir, openAtStart: { file, text } });
    const o = await s.openedAtStart();
    const f = await s.initialFromInitialized();
    opened.push(o.ms); full.push(f.ms);
    counts = `${o.diagnostics} of its ${expected} diagnostics first`;
    progress = s.progress.map((p) => p.kind);
    progress = { begin: progress.filter((k) => k === 'begin').length, report: progress.filter((k) => k === 'report').length, end: progress.filter((k) => k === 'end').length, firstMessage: s.progress[0]?.message };
    rss.push(await s.stop());
    log(`open-first ${c.name} rep ${i + 1}: open file ${o.ms.toFixed(0)} ms (${o.diagnostics} diagnostics), whole workspace ${f.ms.toFixed(0)} ms`);
  }
  results.sections[`open-first-${c.name}`] = { file: chosen, files: c.manifest.totals.files, openFile: stat(opened), first: counts, wholeWorkspace: stat(full), progress, peakRssMB: Math.max(...rss) };
}

// ---------------------------------------------------------------- language servers
const ours = () => ({ kind: 'kube-netlint', command: [path.join(root, 'dist/server.js'), '--stdio'] });
const theirs = () => ({ kind: 'yaml-ls', command: ['--max-old-space-size=8192', yamlLs, '--stdio'] });

async function lspWorkspace(c) {
  const initial = [], edits = [], rss = [];
  // The edited file: one with findings, edited at its first line (every diagnostic of the file moves).
  const cliOut = JSON.parse((await timed(node, [path.join(root, 'bin/kube-netlint.js'), '--format', 'json', '.'], c.dir)).stdout);
  const file = path.join(c.dir, cliOut.findings.find((f) => f.ruleId === 'nodeport-duplicate')?.file ?? cliOut.findings[0].file);
  for (let i = 0; i < reps; i++) {
    const s = await startSession({ ...ours(), folder: c.dir });
    const init = await s.initial();
    initial.push(init.ms);
    await s.open(file, fs.readFileSync(file, 'utf8'), false);
    await s.settle(file);
    edits.push(...(await s.edits(file, 0, nEdits)));
    rss.push(await s.stop());
    log(`lsp ${c.name} rep ${i + 1}: initial ${init.ms.toFixed(0)} ms (${init.status.files} files), edit median ${median(edits.slice(-nEdits)).toFixed(1)} ms`);
  }
  results.sections[`lsp-${c.name}`] = { editedFile: path.relative(c.dir, file), initial: stat(initial), edit: { ...stat(edits), p95: +pct(edits, 95).toFixed(1) }, peakRssMB: Math.max(...rss) };
}

async function lspBigFile(c) {
  const file = fs.readdirSync(c.dir, { recursive: true }).map((f) => path.join(c.dir, f)).find((f) => /\.ya?ml$/.test(f));
  const text = fs.readFileSync(file, 'utf8');
  const line = middleLine(text);
  const servers = [ours(), ...(has('--peers') && haveYamlLs ? [theirs()] : [])];
  const acc = Object.fromEntries(servers.map((s) => [s.kind, { open: [], edits: [], rss: [] }]));
  for (let i = 0; i < reps; i++) {
    for (const server of servers) { // alternating
      const s = await startSession({ ...server, folder: path.dirname(file) });
      // kube-netlint analyses the folder (this one file) at start: its open → diagnostics is the first status.
      const init = server.kind === 'kube-netlint' ? await s.initial() : undefined;
      const o = init ? { ...(await s.open(file, text, false)), ms: init.ms, diagnostics: init.status.findings } : await s.open(file, text);
      await s.settle(file);
      const e = await s.edits(file, line, server.kind === 'yaml-ls' ? Math.min(nEdits, 6) : nEdits, server.kind === 'yaml-ls' ? 400 : 300);
      const rss = await s.stop();
      acc[server.kind].open.push(o.ms); acc[server.kind].edits.push(...e); acc[server.kind].rss.push(rss);
      log(`${server.kind} ${c.name} rep ${i + 1}: open ${o.ms.toFixed(0)} ms (${o.diagnostics} diagnostics), edit median ${median(e).toFixed(1)} ms, peak ${rss} MB`);
    }
  }
  const section = { file: path.relative(c.dir, file), editLine: line + 1, documents: c.manifest.totals.documents };
  for (const [kind, a] of Object.entries(acc)) section[kind] = { open: stat(a.open), edit: { ...stat(a.edits), p95: +pct(a.edits, 95).toFixed(1) }, peakRssMB: Math.max(...a.rss) };
  if (section['yaml-ls']) section.editSpeedup = +(section['yaml-ls'].edit.median / section['kube-netlint'].edit.median).toFixed(1);
  results.sections[`lsp-${c.name}`] = section;
}

async function monokle(c) {
  let r;
  try {
    r = await timed(node, [path.join(peersDir, 'peers/monokle-bench.mjs'), '--dir', c.dir, '--config', 'default-localschema', '--schema-dir', path.join(peersDir, 'peers/schema')], peersDir);
    results.sections[`monokle-${c.name}`] = { wallMs: +r.ms.toFixed(0), ...JSON.parse(r.stdout.trim().split('\n').pop()) };
  } catch (err) {
    log(`@monokle/validation failed: ${String(err.message ?? err).slice(0, 300)}`);
  }
}

// ---------------------------------------------------------------- main
// The render sections make their own workspaces.
const renderOnly = only === 'render' || only === 'render-lsp';
const medium = renderOnly ? undefined : corpus('medium', ['--preset', 'medium']);
const one2000 = renderOnly ? undefined : corpus('one2000', ['--files', '1', '--docs-per-file', '2000']);
const large = has('--no-large') || renderOnly ? undefined : corpus('large', ['--preset', 'large']);
if (!only || only === 'startup') { await startup(); save(); }
if (!only || only === 'cli') {
  await cli(medium);
  save();
  if (large) { await cli(large); save(); }
  const m = results.sections['cli-medium'], l = results.sections['cli-large'];
  if (m && l) results.sections.linearity = { cliLargeOverMedium: +(l.cli.median / m.cli.median).toFixed(2), baselineLargeOverMedium: +(l.baseline.median / m.baseline.median).toFixed(2) };
}
if (!only || only === 'cache') { await cache(medium); save(); }
if (!only || only === 'hostile') { await hostile(); save(); }
if (!only || only === 'lsp' || only === 'open-first') {
  await openFirst(large ?? medium);
  save();
}
if (!only || only === 'lsp') {
  await lspWorkspace(medium);
  save();
  await lspBigFile(one2000);
  const cm = results.sections['cli-medium'], lm = results.sections['lsp-medium'];
  if (cm && lm) lm.initialOverCli = +(lm.initial.median / cm.cli.median).toFixed(2);
}
if (!only || only === 'render') {
  // Helm charts and kustomize overlays rendered with the real tools (bench/lib/render-bench.mjs).
  results.sections.render = await renderSection({ root, benchDir, reps, nEdits: Math.min(nEdits, 10), log });
  save();
}
if (only === 'render-lsp') {
  // The editor part of the render section alone: values-file saves → diagnostics (wall and CPU time).
  results.sections.render = await renderLspSection({ root, nEdits, log });
  save();
}
if (has('--monokle') && haveMonokle) await monokle(medium);
results.machine.loadavgAfter = os.loadavg().map((x) => +x.toFixed(2));
save();
process.stdout.write(table(results) + `\nJSON: ${path.relative(root, outFile)}\n`);

function table(r) {
  const rows = [['measure', 'median', 'min–max', 'ratio / note']];
  const ms = (s) => [`${s.median.toFixed(0)} ms`, `${s.min.toFixed(0)}–${s.max.toFixed(0)}`];
  const S = r.sections;
  if (S.startup) rows.push(['node -e 0', ...ms(S.startup.nodeBare), ''], ['kube-netlint --version', ...ms(S.startup.version), 'target < 150 ms']);
  for (const name of ['medium', 'large']) {
    const c = S[`cli-${name}`];
    if (!c) continue;
    rows.push([`${name}: js-yaml 5 parseEvents baseline (${c.corpus.files} files)`, ...ms(c.eventsBaseline), '']);
    rows.push([`${name}: yaml parseAllDocuments baseline (${c.corpus.documents} docs)`, ...ms(c.baseline), `peak ${c.baselinePeakRssMB} MB`]);
    rows.push([`${name}: same, yaml browser build`, ...ms(c.baselineBrowserBuild), '1 run']);
    const rss = name === 'large' ? ` (target < 600 MB)` : '';
    rows.push([`${name}: kube-netlint --format json`, ...ms(c.cli), `${c.ratioEvents}× events (target ≤ 1.5; per rep ${c.ratioEventsPerRep.join(', ')}), ${c.ratio}× yaml, peak ${c.cliPeakRssMB} MB${rss}`]);
    rows.push([`${name}: planted collisions`, c.findings.ok ? 'all found' : 'MISMATCH', '', `${c.findings.expected} expected, missing ${c.findings.missing.length}, unexpected ${c.findings.unexpected.length}`]);
  }
  if (S.linearity) rows.push(['large ÷ medium (CLI)', `${S.linearity.cliLargeOverMedium}×`, '', `baseline ${S.linearity.baselineLargeOverMedium}× (target ≤ 12×)`]);
  if (S['cache-medium']) {
    const k = S['cache-medium'];
    rows.push(['reopen medium: CLI cold (no cache)', ...ms(k.cliCold), '']);
    rows.push(['reopen medium: CLI --cache, unchanged', ...ms(k.cliWarm), `${k.cliRatio}× cold (target ≤ 0.25; per rep ${k.cliRatioPerRep.join(', ')}), findings ${k.identicalFindings ? 'identical' : 'DIFFER'}`]);
    if (k.cliChanged) rows.push(['reopen medium: CLI --cache, one file changed', ...ms(k.cliChanged), `${k.cliChangedRatio}× cold (that file parsed, the workspace analysed again)`]);
    rows.push(['reopen medium: LSP initial, empty cache', ...ms(k.lspCold), '']);
    rows.push(['reopen medium: LSP initial, cache in storage', ...ms(k.lspWarm), `${k.lspRatio}× cold (target ≤ 0.25; per rep ${k.lspRatioPerRep.join(', ')})`]);
  }
  if (S.hostile) {
    rows.push([`20,000 aliases (kind: List of - *a, ${(S.hostile.aliases.bytes / 1024).toFixed(0)} KB)`, ...ms(S.hostile.aliases.cli), `${S.hostile.aliases.overStartup} ms over --version (target < 1 s)`]);
    rows.push([`2 documents nested 900 deep (${(S.hostile.nested.bytes / 1024).toFixed(1)} KB)`, ...ms(S.hostile.nested.cli), `yaml-syntax at ${S.hostile.nested.yamlSyntax.join(', ')} (no crash)`]);
  }
  for (const name of ['large', 'medium']) {
    const o = S[`open-first-${name}`];
    if (!o) continue;
    rows.push([`LSP ${name} (${o.files} files): open file's diagnostics`, ...ms(o.openFile), `from initialized (target < 500 ms), ${o.first}`]);
    rows.push([`LSP ${name}: whole workspace analysed`, ...ms(o.wholeWorkspace), `progress begin ${o.progress.begin} / report ${o.progress.report} / end ${o.progress.end} ("${o.progress.firstMessage}"), peak ${o.peakRssMB} MB`]);
  }
  if (S['lsp-medium']) {
    const l = S['lsp-medium'];
    rows.push(['LSP medium: initial diagnostics', ...ms(l.initial), `${l.initialOverCli ?? '?'}× CLI (target ≤ 1.5)`]);
    rows.push(['LSP medium: edit → publishDiagnostics', ...ms(l.edit), `p95 ${l.edit.p95} ms (target p95 < 60), peak ${l.peakRssMB} MB`]);
  }
  const b = S['lsp-one2000'];
  if (b) {
    rows.push([`LSP 2,000-doc file: open → diagnostics`, ...ms(b['kube-netlint'].open), `peak ${b['kube-netlint'].peakRssMB} MB`]);
    rows.push([`LSP 2,000-doc file: edit → publishDiagnostics`, ...ms(b['kube-netlint'].edit), `p95 ${b['kube-netlint'].edit.p95} ms (target < 100)`]);
    if (b['yaml-ls']) {
      rows.push([`yaml-language-server: open → diagnostics`, ...ms(b['yaml-ls'].open), `peak ${b['yaml-ls'].peakRssMB} MB`]);
      rows.push([`yaml-language-server: edit → publishDiagnostics`, ...ms(b['yaml-ls'].edit), `kube-netlint ${b.editSpeedup}× faster (target > 20×)`]);
    }
  }
  if (S.render) {
    const r = S.render;
    if (r.cli) {
      rows.push([`render: ${r.corpus.charts} helm template + ${r.corpus.overlays} kubectl kustomize, back to back`, ...ms(r.commandsBackToBack), '']);
      rows.push(['render: kube-netlint --format json (renders them)', ...ms(r.cli), `${r.ratio}× the commands (target ≤ 1.5; per rep ${r.ratioPerRep.join(', ')}); planted ${r.findings.planted}, missing ${r.findings.missing.length}`]);
    }
    const e = r.lsp;
    const cpu = e.valuesEditCpu ? `, CPU median ${e.valuesEditCpu.median.toFixed(0)} ms (p95 ${e.valuesEditCpu.p95.toFixed(0)})` : '';
    rows.push(['render LSP: values file saved → diagnostics', ...ms(e.valuesEdit), `p95 ${e.valuesEdit.p95?.toFixed(0)} ms${cpu}; one release re-rendered (target median < 600 ms); load ${e.loadavg?.before.join(' ')} → ${e.loadavg?.after.join(' ')}; all renders in ${e.initialAllRendered} ms`]);
  }
  if (S['monokle-medium']) rows.push(['@monokle/validation medium', `${S['monokle-medium'].wallMs} ms`, '1 run', `peak ${S['monokle-medium'].maxRssMB} MB`]);
  const w = rows[0].map((_, i) => Math.max(...rows.map((x) => String(x[i]).length)));
  return rows.map((x, j) => {
    const line = `| ${x.map((c, i) => String(c).padEnd(w[i])).join(' | ')} |`;
    return j === 0 ? `${line}\n|${w.map((n) => '-'.repeat(n + 2)).join('|')}|` : line;
  }).join('\n');
}
