import type { CoreConfig } from '../config/config';
import type { LoadedFile } from '../load/load-file';
import type { RepoLayout, RepoPath } from '../repo/layout';
import type { RenderJob } from './jobs';
import type { KustomizationIndex, RenderAvailability } from './plan';

/** Argo CD Applications and Flux HelmReleases / Kustomizations of the workspace, as render jobs. */
export function gitopsJobs(_files: readonly LoadedFile[], _layout: RepoLayout, _config: CoreConfig, _repoPath: RepoPath, _can: RenderAvailability, _index: KustomizationIndex, _exists: (p: string) => boolean): RenderJob[] {
  return [];
}
