import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import type { LoadedFile } from '../../core/load/load-file';
import { dependencyLine } from '../../core/render/errors';
import { mapHelmOutput } from '../../core/render/helm-map';
import { conditionFalse, mergedLeaves, SentinelPlan, sentinelNeutralText, sentinelPlan, ValuesSource } from '../../core/render/helm-values';
import { isMap, isSeq, parseDocument } from 'yaml';
import type { HelmJob } from '../../core/render/jobs';
import type { HelmChart, RenderNote, RepoPath } from '../../core/repo/layout';
import { InputDigest, RenderCache } from './render-cache';
import { runTool, Sandbox, ToolRun } from './run-tool';
import { Renderer, versionAtLeast } from './tools';
import { QUIET } from '../../core/load/parse-options';

export interface HelmRunContext {
  readonly tool: Renderer;
  readonly baseDir: string;
  readonly sandbox: Sandbox;
  readonly files: ReadonlyMap<string, LoadedFile>;
  readonly repoPath: RepoPath;
  readonly charts: readonly HelmChart[];
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  /** Outputs of earlier runs with the same inputs (the language server keeps one; the CLI renders each release once). */
  readonly cache?: RenderCache;
  /** Unsaved editor buffers by absolute path: helm reads them instead of the files on disk. */
  readonly buffers?: ReadonlyMap<string, string>;
}

/**
 * Renders one release: `helm template <release> <absolute chart folder> --namespace <ns> --skip-tests [-f file]…
 * [--set k=v]…`, always with `--namespace` (helm otherwise takes the kubeconfig context's) and an absolute chart
 * path (a bare name would be looked up in chart repositories). Never `--dependency-update`, `--repo`,
 * `--post-renderer`, `--validate`, `--dry-run=server`, `--enable-dns`. A second render with sentinel numbers
 * (core/render/helm-values.ts) runs beside it to prove which values key feeds each field; if it fails, the
 * release is still linted, with template lines instead of values lines.
 */
export async function runHelmJob(job: HelmJob, ctx: HelmRunContext): Promise<{ run: ToolRun; file?: LoadedFile; notes: RenderNote[] }> {
  const byPath = new Map([...ctx.files.values()].map((f) => [ctx.repoPath(f.file), f]));
  const abs = (p: string): string => resolve(ctx.baseDir, p);
  const work = ctx.sandbox.folder('helm');
  const buffers = ctx.buffers ?? new Map<string, string>();
  const argv = ['template', job.release, chartFolder(abs(job.chartDir), work, job.replaceChartValues, buffers), '--namespace', job.namespace, '--skip-tests'];
  job.valuesFiles.forEach((v, i) => {
    const text = buffers.get(abs(v.path));
    if (text === undefined) return void argv.push('-f', abs(v.path));
    const copy = join(work, `values-${i}-${posix.basename(v.path)}`);
    writeFileSync(copy, text);
    argv.push('-f', copy);
  });
  if (job.inlineValues) {
    const inline = join(work, 'inline-values.yaml');
    writeFileSync(inline, job.inlineValues.text);
    argv.push('-f', inline);
  }
  for (const s of job.set) argv.push('--set', `${s.key}=${s.value}`);

  // The values in merge order, with spans: chart values.yaml, its vendored subcharts' values.yaml, -f files, inline.
  const sources: ValuesSource[] = [];
  const chartValues = byPath.get(posix.join(job.chartDir, 'values.yaml'));
  for (const sub of ctx.charts.filter((c) => c.parent === job.chartFile)) {
    const subValues = byPath.get(posix.join(sub.dir, 'values.yaml'));
    const chartFile = ctx.files.get(job.chartFile);
    const dep = chartFile?.role?.type === 'helm-chart' ? chartFile.role.dependencies?.find((d) => d.name === sub.name) : undefined;
    if (subValues) sources.push({ file: subValues.file, text: subValues.text, prefix: [dep?.alias ?? sub.name] });
  }
  if (chartValues && !job.replaceChartValues) sources.push({ file: chartValues.file, text: chartValues.text });
  for (const v of job.valuesFiles) {
    const f = byPath.get(v.path);
    if (f) sources.push({ file: f.file, text: f.text });
  }
  if (job.inlineValues) sources.push(job.inlineValues.source);
  const leaves = mergedLeaves(sources, job.set);
  const prefix = job.chartDir === '.' ? '' : `${job.chartDir}/`;
  const avoid = [...ctx.files.values()].filter((f) => ctx.repoPath(f.file).startsWith(prefix)).map((f) => f.text).join('\n') + sources.map((s) => s.text).join('\n');
  const plan = sentinelPlan(leaves, new Set(job.set.map((s) => s.key)), avoid);
  const options = { cwd: ctx.sandbox.dir, timeoutMs: ctx.timeoutMs, maxOutputBytes: ctx.maxOutputBytes };
  const keys = ctx.cache ? cacheKeys(job, ctx, sources, plan) : undefined;
  const cached = (key: string | undefined): Promise<ToolRun> | undefined => {
    const stdout = key !== undefined ? ctx.cache!.get(key) : undefined;
    return stdout === undefined ? undefined : Promise.resolve({ stdout, stderr: '', exitCode: 0, durationMs: 0 });
  };
  const main = cached(keys?.main) ?? runTool(ctx.tool.path, argv, ctx.sandbox.env, options);
  let sentinel: Promise<ToolRun> | undefined;
  if (plan) {
    const file = join(work, 'sentinels.yaml');
    writeFileSync(file, plan.valuesText);
    const probeArgv = [...argv, '-f', file, ...plan.set.flatMap((s) => ['--set', s])];
    // Charts with a values.schema.json may reject sentinels; helm >= 3.16 can skip the schema for this probe only.
    if (versionAtLeast(ctx.tool.version, 3, 16)) probeArgv.push('--skip-schema-validation');
    sentinel = cached(keys?.sentinel) ?? runTool(ctx.tool.path, probeArgv, ctx.sandbox.env, options);
  }
  let [run, probe] = await Promise.all([main, sentinel]);
  if (keys && run.exitCode === 0) ctx.cache!.set(keys.main, run.stdout);
  if (keys?.sentinel && probe?.exitCode === 0) ctx.cache!.set(keys.sentinel, probe.stdout);
  const notes: RenderNote[] = [];
  const missing = /found in Chart\.yaml, but missing in charts\/ directory: ([^\n]+)/.exec(run.stderr);
  const chartFile = ctx.files.get(job.chartFile);
  const deps = chartFile?.role?.type === 'helm-chart' ? chartFile.role.dependencies ?? [] : [];
  if (run.exitCode !== 0 && missing && chartFile) {
    // Dependencies missing from charts/ are never downloaded: the chart is rendered without them (a copy whose
    // Chart.yaml leaves them out), like a remote kustomize base, and a finding names each one. A disabled one (its
    // `condition` false for these values) changes nothing; an enabled one leaves its objects unchecked. When the
    // chart cannot render without them (templates that include the subchart's), the original failure stands.
    const names = missing[1].split(',').map((n) => n.trim()).filter(Boolean);
    const copy = chartMirror(argv[2], join(work, 'chart-deps'), { 'Chart.yaml': withoutDependencies(chartFile.text, names) });
    const retry = (extra: string[]): Promise<ToolRun> => runTool(ctx.tool.path, [argv[0], argv[1], copy, ...argv.slice(3), ...extra], ctx.sandbox.env, options);
    const probeArgs = plan ? ['-f', join(work, 'sentinels.yaml'), ...plan.set.flatMap((x) => ['--set', x]), ...(versionAtLeast(ctx.tool.version, 3, 16) ? ['--skip-schema-validation'] : [])] : undefined;
    const [again, againProbe] = await Promise.all([retry([]), probeArgs ? retry(probeArgs) : Promise.resolve(undefined)]);
    if (again.exitCode === 0) {
      [run, probe] = [again, againProbe];
      for (const name of names) {
        const dep = deps.find((d) => (d.alias ?? d.name) === name || d.name === name);
        const off = conditionFalse(dep?.condition, leaves);
        notes.push({
          ruleId: 'render-incomplete',
          severity: 'info',
          message: off
            ? `dependency ${name} is not in charts/ (${job.label}): it is disabled by these values (${dep?.condition} is false), so the render is complete without it`
            : `dependency ${name} is not in charts/ and was left out of the render (${job.label}): run "helm dependency build" to vendor it (kube-netlint never downloads), so its objects are not linted`,
          span: dependencyLine(chartFile, name) ?? job.anchor,
        });
      }
    }
  }
  if (run.exitCode !== 0) return { run, notes: [] };
  const mapped = mapHelmOutput({
    job, output: run.stdout, sentinelOutput: probe && probe.exitCode === 0 ? probe.stdout : undefined, plan, leaves, files: ctx.files, repoPath: ctx.repoPath, charts: ctx.charts,
  });
  return { run, file: mapped.file, notes };
}

/**
 * Cache keys of a release's two renders: the main one from everything helm reads (the chart folder, every `-f`
 * file, inline values, `--set` pairs, release, namespace, the helm binary and version); the sentinel one the same
 * with every number the sentinels override written as `#` in the values, plus the plan — so a values edit that
 * only changes such numbers (a nodePort) re-uses the last sentinel render and runs helm once. Undefined parts are
 * left out of caching (a chart too big to hash).
 */
function cacheKeys(job: HelmJob, ctx: HelmRunContext, sources: readonly ValuesSource[], plan: SentinelPlan | undefined): { main: string; sentinel?: string } | undefined {
  const abs = (p: string): string => resolve(ctx.baseDir, p);
  const valuesFiles = new Set(sources.map((s) => abs(ctx.repoPath(s.file))));
  const sentinelKeys = new Set(plan?.set.map((s) => s.slice(0, s.lastIndexOf('='))) ?? []);
  const digest = (neutral: boolean): string | undefined => {
    const d = new InputDigest(ctx.buffers, neutral ? (p) => (valuesFiles.has(p) ? sentinelNeutralText : undefined) : undefined);
    d.add('helm template', ctx.tool.path, ctx.tool.version, job.release, job.namespace, String(job.replaceChartValues), abs(job.chartDir));
    d.addTree(abs(job.chartDir));
    for (const v of job.valuesFiles) d.add('-f').addFile(abs(v.path));
    if (job.inlineValues) d.add('inline', neutral ? sentinelNeutralText(job.inlineValues.text) : job.inlineValues.text);
    for (const s of job.set) d.add('--set', s.key, neutral && sentinelKeys.has(s.key) ? '#' : s.value);
    if (neutral && plan) d.add('sentinels', plan.valuesText, ...plan.set, String(versionAtLeast(ctx.tool.version, 3, 16)));
    return d.ok ? d.digest() : undefined;
  };
  const main = digest(false);
  if (main === undefined) return undefined;
  const sentinel = plan ? digest(true) : undefined;
  return { main, ...(sentinel ? { sentinel } : {}) };
}

/** A chart folder made of symbolic links to the original's entries (helm follows them), some files replaced by text. */
function chartMirror(chartDir: string, copy: string, replace: Readonly<Record<string, string>>): string {
  mkdirSync(copy, { recursive: true });
  for (const entry of readdirSync(chartDir)) if (!(entry in replace)) symlinkSync(join(chartDir, entry), join(copy, entry));
  for (const [name, text] of Object.entries(replace)) writeFileSync(join(copy, name), text);
  return copy;
}

/** Chart.yaml without some `dependencies` entries (edited with `yaml`, the rest kept). */
function withoutDependencies(text: string, names: readonly string[]): string {
  const doc = parseDocument(text, QUIET);
  const deps = doc.get('dependencies', true);
  if (isSeq(deps)) deps.items = deps.items.filter((d) => !(isMap(d) && (names.includes(String(d.get('alias') ?? '')) || names.includes(String(d.get('name') ?? '')))));
  return doc.toString();
}

/**
 * The chart folder helm is given: the chart itself, or a mirror of it (symbolic links to its entries) when files
 * must read otherwise — Flux's `chart.spec.valuesFiles` replace the chart's values.yaml (source-controller builds
 * the chart with their merge as its values.yaml: the mirror's values.yaml is empty, so only the listed files
 * count), and unsaved editor buffers of the chart's files replace those files.
 */
function chartFolder(chartDir: string, work: string, replaceValues: boolean, buffers: ReadonlyMap<string, string>): string {
  const replace = new Map<string, string>();
  for (const [file, text] of buffers) if (file.startsWith(`${chartDir}/`)) replace.set(file.slice(chartDir.length + 1), text);
  if (replaceValues) replace.set('values.yaml', '');
  if (!replace.size) return chartDir;
  const copy = join(work, 'chart');
  mirrorTree(chartDir, copy, replace);
  return copy;
}

/** `dir` mirrored into `copy`: folders that hold a replaced file are made, other entries are symbolic links, replaced files are written. */
function mirrorTree(dir: string, copy: string, replace: ReadonlyMap<string, string>): void {
  mkdirSync(copy, { recursive: true });
  const inside = (entry: string): Map<string, string> => {
    const out = new Map<string, string>();
    for (const [rel, text] of replace) if (rel.startsWith(`${entry}/`)) out.set(rel.slice(entry.length + 1), text);
    return out;
  };
  const done = new Set<string>();
  for (const entry of readdirSync(dir)) {
    done.add(entry);
    const text = replace.get(entry);
    if (text !== undefined) writeFileSync(join(copy, entry), text);
    else if (inside(entry).size) mirrorTree(join(dir, entry), join(copy, entry), inside(entry));
    else symlinkSync(join(dir, entry), join(copy, entry));
  }
  // Buffers of files not on disk yet.
  for (const [rel, text] of replace) {
    const top = rel.split('/')[0];
    if (done.has(top)) continue;
    mkdirSync(dirname(join(copy, rel)), { recursive: true });
    writeFileSync(join(copy, rel), text);
  }
}
