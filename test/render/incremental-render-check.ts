/**
 * The incremental analysis with rendered objects, checked against the full analysis (run as a child process inside
 * `unshare -n` by incremental-render.test.ts, since it renders with the real helm and kustomize).
 *
 *   node incremental-render-check.js <clusters|kustomize> <seed> <edits>
 *
 * Renders a fixture repository (a chart whose values.yaml sets a colliding nodePort, a base with two overlays
 * whose patches move nodePorts, plain manifests) in three disk states — as written, with other ports, and with a
 * chart that fails — then makes random edits to every kind of file (plain manifests, consumed bases and patches,
 * values files, chart templates) and swaps between the render results, and after each change compares
 * IncrementalWorkspace.analyze() with analyze() over the same files and renders. Prints one JSON line:
 * `{ok, edits, modes: {full: n, incremental: n, cached: n}, mismatch?}`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { analyze, AnalyzeOptions } from '../../server/out/core/analyze';
import { CoreConfig, DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile, LoadedFile } from '../../server/out/core/load/load-file';
import type { Finding } from '../../server/out/core/rules/rule';
import { IncrementalWorkspace } from '../../server/out/core/workspace/incremental';
import { renderWorkspace } from '../../server/out/node/render/render-workspace';
import { findRenderers } from '../../server/out/node/render/tools';

const svc = (name: string, nodePort: number, extra = '') =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  selector: {app: ${name}}\n  ports:\n    - name: http\n      port: 80\n${extra}      nodePort: ${nodePort}\n`;
const deployment = (name: string, port: number) =>
  `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: ${name}\nspec:\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec:\n      containers:\n        - name: app\n          image: nginx:1.27\n          ports:\n            - name: http\n              containerPort: ${port}\n`;
const patch = (name: string, nodePort: number) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  ports:\n    - name: http\n      port: 80\n      nodePort: ${nodePort}\n`;
const agent = (hostPort: number) =>
  `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: agent\n  namespace: kube-system\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers:\n        - name: agent\n          image: agent:1.0\n          ports:\n            - containerPort: ${hostPort}\n              hostPort: ${hostPort}\n`;

/** The fixture repository; `ports` shifts the numbers the second render sees, `broken` makes the chart fail. */
function tree(ports: number, broken: boolean): Record<string, string> {
  return {
    'charts/web/Chart.yaml': 'apiVersion: v2\nname: web\nversion: 0.1.0\n',
    'charts/web/values.yaml': `service:\n  type: NodePort\n  port: 80\n  nodePort: ${30080 + ports}\ncontainerPort: 8080\n`,
    'charts/web/templates/service.yaml':
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  type: {{ .Values.service.type }}\n  selector:\n    app: {{ .Release.Name }}\n  ports:\n    - name: http\n      port: {{ .Values.service.port }}\n      targetPort: http\n      nodePort: {{ .Values.service.nodePort }}\n',
    'charts/web/templates/deployment.yaml': broken
      ? 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ required "a name" .Values.missing }}\n'
      : 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  selector: {matchLabels: {app: {{ .Release.Name }}}}\n  template:\n    metadata: {labels: {app: {{ .Release.Name }}}}\n    spec:\n      containers:\n        - name: app\n          image: nginx:1.27\n          ports:\n            - name: http\n              containerPort: {{ .Values.containerPort }}\n',
    'base/kustomization.yaml': 'resources:\n  - api.yaml\n  - deployment.yaml\n',
    'base/api.yaml': svc('api', 30100),
    'base/deployment.yaml': deployment('api', 8080),
    'overlays/prod/kustomization.yaml': 'namespace: prod\nresources:\n  - ../../base\n  - extra.yaml\npatches:\n  - path: nodeport.yaml\n',
    'overlays/prod/nodeport.yaml': patch('api', 30080 + ports),
    'overlays/prod/extra.yaml': `${svc('extra', 30200).replace('  ports:', '  externalIPs: [10.0.0.5]\n  ports:')}---\n${svc('extra2', 30201)}`,
    'overlays/dev/kustomization.yaml': 'namespace: dev\nnamePrefix: dev-\nresources:\n  - ../../base\npatches:\n  - path: nodeport.yaml\n',
    'overlays/dev/nodeport.yaml': patch('api', 30110 - ports),
    'plain/other.yaml': `${svc('other', 30080)}---\n${svc('third', 30110)}---\n${deployment('other', 9090)}`,
    'plain/agent.yaml': agent(30200),
    // externalIP conflicts relate Services by port: one collides with the overlay's extra Service until an edit moves it.
    'plain/external.yaml': `${svc('ext-a', 30300, '      protocol: TCP\n').replace('  ports:', '  externalIPs: [10.0.0.5]\n  ports:')}---\n${svc('ext-b', 30301).replace('port: 80', 'port: 81').replace('  ports:', '  externalIPs: [10.0.0.5]\n  ports:')}`,
  };
}

function random(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 48271) % 2147483647) / 2147483647;
}

const key = (f: Finding): string => JSON.stringify([f.ruleId, f.severity, f.message, f.span, f.object, f.related, f.fixes, f.rendered]);

async function main(): Promise<void> {
  const [mode = 'kustomize', seedText = '11', editsText = '80'] = process.argv.slice(2);
  const config: CoreConfig = mode === 'clusters' ? { ...DEFAULT_CONFIG, clusters: { prod: ['overlays/prod/**', 'charts/**', 'plain/**'], dev: ['overlays/dev/**'] } } : DEFAULT_CONFIG;
  const dir = mkdtempSync(join(tmpdir(), 'knl-incremental-render-'));
  try {
    const write = (files: Record<string, string>): void => {
      for (const [rel, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, rel)), { recursive: true });
        writeFileSync(join(dir, rel), text);
      }
    };
    const repoPath = (f: string): string => relative(dir, f).split(sep).join('/');
    const renderers = await findRenderers({}, {}, process.env.PATH, dir);
    if (!renderers.helm || !renderers.kustomize) throw new Error(`renderers missing: ${renderers.problems.join('; ')}`);
    const renderState = async (ports: number, broken: boolean): Promise<Pick<AnalyzeOptions, 'renders' | 'renderNotes'>> => {
      const files = tree(ports, broken);
      write(files);
      const loaded = Object.entries(files).map(([rel, text]) => loadFile(join(dir, rel), text));
      const r = await renderWorkspace({ files: loaded, config, repoPath, baseDir: dir, repoRoot: dir, renderers });
      return { renders: r.outcomes, renderNotes: r.notes };
    };
    const states = [await renderState(0, false), await renderState(7, false), await renderState(0, true)];
    if (states[0].renders!.some((o) => !o.file) || states[1].renders!.some((o) => !o.file) || states[2].renders!.every((o) => o.file)) {
      throw new Error(`unexpected render results: ${JSON.stringify(states.map((s) => s.renders!.map((o) => [o.job.id, !!o.file, o.notes.map((n) => n.message)])))}`);
    }

    const texts = new Map(Object.entries(tree(0, false)).map(([rel, text]) => [join(dir, rel), text]));
    const ws = new IncrementalWorkspace(config, { repoPath });
    for (const [f, t] of texts) ws.setText(f, t);
    let current = states[0];
    ws.setRenders({ ...current });
    const rnd = random(Number(seedText));
    const names = [...texts.keys()];
    const modes: Record<string, number> = {};
    const check = (what: string): string | undefined => {
      const got = ws.analyze().findings.map(key);
      modes[ws.lastRun.mode] = (modes[ws.lastRun.mode] ?? 0) + 1;
      const files: LoadedFile[] = ws.fileNames().map((f) => ws.get(f)!);
      const want = analyze(files, config, { repoPath, ...current }).findings.map(key);
      if (JSON.stringify(got) === JSON.stringify(want)) return undefined;
      const extra = got.filter((g) => !want.includes(g));
      const missing = want.filter((w) => !got.includes(w));
      return `${what} (${ws.lastRun.mode}): extra ${extra.slice(0, 3).join('\n')}; missing ${missing.slice(0, 3).join('\n')}`;
    };
    const first = check('initial');
    if (first) throw new Error(first);
    const edits = Number(editsText);
    for (let i = 0; i < edits; i++) {
      const r = rnd();
      let what: string;
      if (r < 0.2) {
        const next = states[rnd() < 0.85 ? Math.floor(rnd() * 2) : 2];
        current = next;
        // A new result object each time, as the language server hands them over.
        ws.setRenders({ renders: [...next.renders!], renderNotes: next.renderNotes });
        what = `renders ${states.indexOf(next)}`;
      } else {
        const file = names[Math.floor(rnd() * names.length)];
        let t = texts.get(file)!;
        const ports = [...t.matchAll(/(nodePort|hostPort|port|containerPort): (\d+)/g)];
        const k = rnd();
        if (k < 0.55 && ports.length) {
          const m = ports[Math.floor(rnd() * ports.length)];
          const at = m.index! + m[0].length - 1 - Math.floor(rnd() * 2);
          t = t.slice(0, at) + String(Math.floor(rnd() * 10)) + t.slice(at + 1);
        } else if (k < 0.85) {
          const line = t.indexOf('\n', Math.floor(rnd() * t.length));
          t = line < 0 ? `${t}\n` : `${t.slice(0, line + 1)}\n${t.slice(line + 1)}`;
        } else {
          const at = Math.floor(rnd() * t.length);
          t = `${t.slice(0, at)}x${t.slice(at)}`;
        }
        texts.set(file, t);
        ws.setText(file, t);
        what = `edit of ${repoPath(file)}`;
      }
      const mismatch = check(`change ${i}: ${what}`);
      if (mismatch) {
        process.stdout.write(`${JSON.stringify({ ok: false, edits: i + 1, modes, mismatch })}\n`);
        return;
      }
    }
    process.stdout.write(`${JSON.stringify({ ok: true, edits, modes })}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: Error) => {
  process.stdout.write(`${JSON.stringify({ ok: false, error: err.stack ?? String(err) })}\n`);
  process.exitCode = 1;
});
