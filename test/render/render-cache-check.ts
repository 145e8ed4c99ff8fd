/**
 * The language server's render cache with the real helm (run as a child process inside `unshare -n` by
 * render-cache.test.ts). A chart is rendered through a helm wrapper that logs each `helm template` run; after each
 * change the render with the cache is compared with one without it (the same objects, source maps and findings).
 *
 *   node render-cache-check.js <helm>
 *
 * Prints one JSON line: `{steps: [{step, runs, hits, same, findings}], error?}` where `runs` counts the helm
 * template runs of the cached render and `findings` lists the nodeport-duplicate findings as `file:line`.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile } from '../../server/out/core/load/load-file';
import type { RenderOutcome } from '../../server/out/core/render/jobs';
import { RenderCache } from '../../server/out/node/render/render-cache';
import { renderWorkspace } from '../../server/out/node/render/render-workspace';
import { findRenderers } from '../../server/out/node/render/tools';

const values = (nodePort: number, type = 'NodePort', comment = '') =>
  `${comment}service:\n  type: ${type}\n  port: 80\n  nodePort: ${nodePort} # the node's port\nreplicas: 3\n`;
const TEMPLATE =
  'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  type: {{ .Values.service.type }}\n  ports:\n    - port: {{ .Values.service.port }}\n      nodePort: {{ .Values.service.nodePort }}\n';
const OTHER = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: other\nspec:\n  type: NodePort\n  ports:\n    - port: 81\n      nodePort: 30081\n';

async function main(): Promise<void> {
  const [realHelm] = process.argv.slice(2);
  const dir = mkdtempSync(join(tmpdir(), 'knl-render-cache-'));
  try {
    const repo = join(dir, 'repo');
    const log = join(dir, 'helm.log');
    const wrapper = join(dir, 'helm');
    writeFileSync(wrapper, `#!/bin/sh\n[ "$1" = template ] && echo template >> '${log}'\nexec '${realHelm}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    writeFileSync(log, '');
    const files: Record<string, string> = {
      'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
      'charts/web/values.yaml': values(30080),
      'charts/web/templates/service.yaml': TEMPLATE,
      'plain/other.yaml': OTHER,
    };
    const write = (rel: string, text: string): void => {
      mkdirSync(dirname(join(repo, rel)), { recursive: true });
      writeFileSync(join(repo, rel), text);
      files[rel] = text;
    };
    for (const [rel, text] of Object.entries(files)) write(rel, text);
    const repoPath = (f: string): string => relative(repo, f).split(sep).join('/');
    const renderers = await findRenderers({ path: wrapper, source: 'test' }, {}, '/usr/bin:/bin', repo);
    if (!renderers.helm) throw new Error(`helm missing: ${renderers.problems.join('; ')}`);
    const cache = new RenderCache();
    const runs = (): number => readFileSync(log, 'utf8').split('\n').filter(Boolean).length;
    const render = async (withCache: boolean): Promise<{ outcome: RenderOutcome; findings: string[] }> => {
      const loaded = Object.entries(files).map(([rel, text]) => loadFile(join(repo, rel), text));
      const r = await renderWorkspace({ files: loaded, config: DEFAULT_CONFIG, repoPath, baseDir: repo, repoRoot: repo, renderers, ...(withCache ? { cache } : {}) });
      const outcome = r.outcomes.find((o) => o.job.kind === 'helm')!;
      const analysis = analyze(loaded, DEFAULT_CONFIG, { repoPath, renders: r.outcomes, renderNotes: r.notes });
      const findings = analysis.findings.map((f) => `${f.ruleId} ${repoPath(f.span.file)}:${loaded.find((l) => l.file === f.span.file)?.lines.position(f.span.start).line ?? '?'} ${f.message}`);
      return { outcome, findings };
    };
    const steps: { step: string; runs: number; hits: number; same: boolean; findings: string[] }[] = [];
    const step = async (name: string): Promise<void> => {
      const before = runs();
      const hits = cache.hits;
      const cached = await render(true);
      const cachedRuns = runs() - before;
      const plain = await render(false);
      const same =
        JSON.stringify(cached.findings) === JSON.stringify(plain.findings) &&
        cached.outcome.file?.text === plain.outcome.file?.text &&
        JSON.stringify(cached.outcome.file?.objects) === JSON.stringify(plain.outcome.file?.objects) &&
        JSON.stringify(cached.outcome.file?.render) === JSON.stringify(plain.outcome.file?.render);
      steps.push({ step: name, runs: cachedRuns, hits: cache.hits - hits, same, findings: cached.findings.filter((f) => f.startsWith('nodeport-duplicate')).map((f) => f.split(' ')[1]) });
    };
    await step('first render');
    await step('nothing changed');
    write('charts/web/values.yaml', values(30081));
    await step('nodePort changed');
    write('charts/web/values.yaml', values(30082, 'NodePort', '# moved off 30081\n'));
    await step('nodePort and a comment changed');
    write('charts/web/values.yaml', values(30081, 'LoadBalancer', '# moved off 30081\n'));
    await step('type changed');
    write('charts/web/templates/service.yaml', TEMPLATE.replace('name: {{ .Release.Name }}', 'name: {{ .Release.Name }}-svc'));
    await step('template changed');
    process.stdout.write(`${JSON.stringify({ steps })}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  process.stdout.write(`${JSON.stringify({ steps: [], error: err.stack ?? String(err) })}\n`);
  process.exitCode = 1;
});
