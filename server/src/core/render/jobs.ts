import type { LoadedFile } from '../load/load-file';
import type { RenderNote } from '../repo/layout';
import type { Span } from '../source/span';
import type { RenderSourceMap } from './source-map';
import type { TransformerField } from './kustomization';
import type { ValuesSource } from './helm-values';

/** Where the objects of a render belong when the workspace has several clusters. */
export type RenderClusters =
  /** The cluster groups that claim this file (a kustomization.yaml, an Argo CD Application); every group when none does. */
  | { readonly type: 'of-file'; readonly file: string }
  /** Named groups (`cluster:` of a configured release). */
  | { readonly type: 'named'; readonly names: readonly string[] }
  /** Every group. */
  | { readonly type: 'all' }
  /**
   * A unit of its own (a chart rendered by default, with no release configured): with `clusters:` globs, the groups
   * that claim `file` (its Chart.yaml); otherwise its own cluster group whenever the workspace holds another
   * deployable unit (a kustomize entry point, another chart) — nothing says it is installed beside them.
   */
  | { readonly type: 'own'; readonly file: string; readonly name: string };

interface JobBase {
  /** Unique among the jobs of one analysis: `kustomize:overlays/prod`, `helm:web@charts/web`. */
  readonly id: string;
  /** How messages name the render: `rendered by overlays/prod`, `Helm release web, values-prod.yaml`. */
  readonly label: string;
  /** Where findings about the render as a whole go (the kustomization, Chart.yaml, the Application). */
  readonly anchor: Span;
  /** Namespace of rendered objects that name none. */
  readonly namespace: string;
  readonly clusters: RenderClusters;
  /** Files (as loaded) whose objects the rendered output replaces in the analysis. */
  readonly consumes: readonly string[];
  /** Repository paths (files and folders) the render reads: a change to any of them re-runs it. */
  readonly reads: readonly string[];
  /** Findings known before running (left-out remote entries, values only the cluster knows). */
  readonly notes: readonly RenderNote[];
}

/** A kustomize build of one entry point (a folder with a kustomization), possibly with extra settings (Flux, Argo CD). */
export interface KustomizeJob extends JobBase {
  readonly kind: 'kustomize';
  /** Repository path of the folder to build. */
  readonly dir: string;
  /**
   * Entries to leave out, by kustomization (repository path of the file) → entry values as written (remote bases).
   * When non-empty, the build runs on a temporary copy of the kustomizations it reads.
   */
  readonly drop: ReadonlyMap<string, readonly string[]>;
  /**
   * `helmCharts` entries to leave out (not vendored: kustomize would pull them), by kustomization (repository path
   * of the file) → chart names. When non-empty, the build runs on a temporary copy, as for `drop`.
   */
  readonly dropHelmCharts?: ReadonlyMap<string, readonly string[]>;
  /** Repository paths of the vendored chart folders that `helmCharts` entries inflate (copied whole into a temporary copy). */
  readonly chartDirs?: readonly string[];
  /** Chart.yaml files (as loaded) of those charts: rendered through this build, not as releases of their own. */
  readonly helmChartFiles?: readonly string[];
  /** Repository paths of the values files those charts are inflated with (`valuesFile` or the chart's values.yaml, `additionalValuesFiles`). */
  readonly helmValuesFiles?: readonly string[];
  /** Settings added on top (a wrapper kustomization): Flux `targetNamespace`, Argo CD `kustomize.namePrefix` …. */
  readonly overlay?: Readonly<Record<string, unknown>>;
  /** Where the overlay's transformers are written (for findings on fields they set), e.g. Flux `targetNamespace`. */
  readonly overlayFields?: readonly TransformerField[];
  /** A folder without kustomization.yaml: every YAML file below it is a resource (Flux, Argo CD directory apps). */
  readonly plainFiles?: readonly string[];
  /** Build with `--enable-helm` (the kustomization has `helmCharts`). */
  readonly enableHelm: boolean;
}

/** A `helm template` of one release. */
export interface HelmJob extends JobBase {
  readonly kind: 'helm';
  /** Repository path of the chart folder, its Chart.yaml as loaded, and its name. */
  readonly chartDir: string;
  readonly chartFile: string;
  readonly chartName: string;
  readonly release: string;
  /** `-f` files in order: repository paths, with the span that named them (a config or Application line). */
  readonly valuesFiles: readonly { readonly path: string; readonly namedAt?: Span }[];
  /** Values written inline (Argo CD `helm.values` / `valuesObject`, Flux `spec.values`), as YAML text, given last. */
  readonly inlineValues?: { readonly text: string; readonly source: ValuesSource };
  /** `--set key=value` pairs in order, with the span of each value. */
  readonly set: readonly { readonly key: string; readonly value: string; readonly span?: Span }[];
  /** Flux `chart.spec.valuesFiles`: the chart's own values.yaml is replaced, not merged. */
  readonly replaceChartValues: boolean;
}

export type RenderJob = KustomizeJob | HelmJob;

/** What one job gave: the rendered manifest as a loaded file with its source map, or the reason it failed. */
export interface RenderOutcome {
  readonly job: RenderJob;
  /** The rendered manifest (a virtual file, `render:…`), with `render` set. Absent when the render failed. */
  readonly file?: LoadedFile;
  /** Findings of the render: failures, left-out entries, patches without effect. */
  readonly notes: readonly RenderNote[];
  /**
   * Files the render read that the workspace does not load as manifests (a JSON 6902 patch `p.json`, which holds no
   * Kubernetes object), loaded so that findings on the fields they set can point into them.
   */
  readonly sources?: readonly LoadedFile[];
  readonly durationMs: number;
}

/** The prefix of rendered manifests' file names (virtual files: they are not on disk). */
export const RENDER_FILE_PREFIX = 'render:';

/** The source map and label of a rendered manifest (see {@link LoadedFile.render}). */
export interface RenderedSource {
  readonly jobId: string;
  readonly label: string;
  readonly map: RenderSourceMap;
  /** The text of each source file the map points into, as it was when the render was mapped (see {@link sourceSpanNow}). */
  readonly sourceTexts: ReadonlyMap<string, string>;
}
