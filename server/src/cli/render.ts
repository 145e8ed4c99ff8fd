import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CoreConfig } from '../core/config/config';
import type { LoadedFile } from '../core/load/load-file';
import { renderWorkspace, WorkspaceRenders } from '../node/render/render-workspace';
import { findRenderers } from '../node/render/tools';
import type { CliIo } from './io';
import type { CliOptions } from './options';

/**
 * Renders the workspace's kustomize entry points and Helm releases with the real tools (when it has any; `buffers`:
 * standard input named by --stdin-filename, rendered in place of that file), and says
 * on stderr which renders ran (`rendered 3 kustomizations, 2 Helm releases in 1.4 s`) and which tool is missing.
 */
export async function renderForCli(
  options: Pick<CliOptions, 'helm' | 'kustomize'>, io: CliIo, files: readonly LoadedFile[], config: CoreConfig, repoPath: (f: string) => string, baseDir: string, configPath: string | undefined, configFile?: LoadedFile,
  buffers?: ReadonlyMap<string, string>,
): Promise<WorkspaceRenders | undefined> {
  if (!files.some((f) => f.role) && !files.some((f) => f.objects.some((o) => GITOPS_KINDS.has(o.kind)))) return undefined;
  const env = io.env ?? process.env;
  const renderers = await findRenderers(
    { path: options.helm ?? env.KUBE_NETLINT_HELM, source: options.helm ? '--helm flag' : 'KUBE_NETLINT_HELM' },
    { path: options.kustomize ?? env.KUBE_NETLINT_KUSTOMIZE, source: options.kustomize ? '--kustomize flag' : 'KUBE_NETLINT_KUSTOMIZE' },
    env.PATH,
    io.cwd,
  );
  const result = await renderWorkspace({ files, config, repoPath, baseDir, repoRoot: repositoryRoot(baseDir, configPath), renderers, configFile, ...(buffers ? { buffers } : {}) });
  const kustomizations = result.outcomes.filter((o) => o.job.kind === 'kustomize').length;
  const releases = result.outcomes.length - kustomizations;
  const failed = result.outcomes.filter((o) => !o.file).length;
  const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  if (result.outcomes.length) {
    io.stderr(`kube-netlint: rendered ${plural(kustomizations, 'kustomization', 'kustomizations')}, ${plural(releases, 'Helm release', 'Helm releases')} in ${(result.durationMs / 1000).toFixed(1)} s${failed ? ` (${failed} failed, see render-failed)` : ''}\n`);
  }
  const needs = { helm: files.some((f) => f.role?.type === 'helm-chart'), kustomize: files.some((f) => f.role?.type === 'kustomization') };
  for (const p of renderers.problems) {
    if ((p.startsWith('helm') && needs.helm) || (p.startsWith('kustomize') && needs.kustomize)) io.stderr(`kube-netlint: ${p}: ${p.startsWith('helm') ? 'Helm charts are not rendered' : 'kustomize overlays are linted as written'}\n`);
  }
  return result;
}

/** Kinds of GitOps objects that name releases (Argo CD Application, Flux HelmRelease / Kustomization). */
const GITOPS_KINDS = new Set(['Application', 'HelmRelease', 'Kustomization']);

/** The repository root: the nearest folder above `baseDir` with a `.git`, else the config file's folder, else `baseDir`. */
function repositoryRoot(baseDir: string, configPath: string | undefined): string {
  for (let dir = baseDir; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) break;
  }
  return configPath ? dirname(configPath) : baseDir;
}


