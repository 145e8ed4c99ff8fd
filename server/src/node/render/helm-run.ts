import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, posix, resolve } from 'node:path';
import type { LoadedFile } from '../../core/load/load-file';
import { mapHelmOutput } from '../../core/render/helm-map';
import { mergedLeaves, sentinelPlan, ValuesSource } from '../../core/render/helm-values';
import type { HelmJob } from '../../core/render/jobs';
import type { HelmChart, RenderNote, RepoPath } from '../../core/repo/layout';
import { runTool, Sandbox, ToolRun } from './run-tool';
import { Renderer, versionAtLeast } from './tools';

export interface HelmRunContext {
  readonly tool: Renderer;
  readonly baseDir: string;
  readonly sandbox: Sandbox;
  readonly files: ReadonlyMap<string, LoadedFile>;
  readonly repoPath: RepoPath;
  readonly charts: readonly HelmChart[];
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
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
  const argv = ['template', job.release, job.replaceChartValues ? chartWithoutValues(abs(job.chartDir), work) : abs(job.chartDir), '--namespace', job.namespace, '--skip-tests'];
  for (const v of job.valuesFiles) argv.push('-f', abs(v.path));
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
  const main = runTool(ctx.tool.path, argv, ctx.sandbox.env, options);
  let sentinel: Promise<ToolRun> | undefined;
  if (plan) {
    const file = join(work, 'sentinels.yaml');
    writeFileSync(file, plan.valuesText);
    const probeArgv = [...argv, '-f', file, ...plan.set.flatMap((s) => ['--set', s])];
    // Charts with a values.schema.json may reject sentinels; helm >= 3.16 can skip the schema for this probe only.
    if (versionAtLeast(ctx.tool.version, 3, 16)) probeArgv.push('--skip-schema-validation');
    sentinel = runTool(ctx.tool.path, probeArgv, ctx.sandbox.env, options);
  }
  const [run, probe] = await Promise.all([main, sentinel]);
  if (run.exitCode !== 0) return { run, notes: [] };
  const mapped = mapHelmOutput({
    job, output: run.stdout, sentinelOutput: probe && probe.exitCode === 0 ? probe.stdout : undefined, plan, leaves, files: ctx.files, repoPath: ctx.repoPath, charts: ctx.charts,
  });
  return { run, file: mapped.file, notes: [] };
}

/**
 * Flux's `chart.spec.valuesFiles` replace the chart's values.yaml (source-controller builds the chart with their
 * merge as its values.yaml): a copy of the chart folder made of symbolic links to its files (helm follows them) with
 * an empty values.yaml, so only the listed files count.
 */
function chartWithoutValues(chartDir: string, work: string): string {
  const copy = join(work, 'chart');
  mkdirSync(copy, { recursive: true });
  for (const entry of readdirSync(chartDir)) {
    if (entry === 'values.yaml') continue;
    symlinkSync(join(chartDir, entry), join(copy, entry));
  }
  writeFileSync(join(copy, 'values.yaml'), '');
  return copy;
}
