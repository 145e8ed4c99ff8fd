import type { CoreConfig, Severity } from '../config/config';
import type { Span } from '../source/span';
import type { K8sObject } from '../model/objects';
import type { WorkspaceModel } from '../model/workspace-model';
import type { RepoLayout } from '../repo/layout';
import type { LoadedFile } from '../load/load-file';

/** A text replacement: the text at `span` becomes `newText`. Fixes edit only the value they name. */
export interface TextEdit {
  readonly span: Span;
  readonly newText: string;
}

/** A quick fix: one or more edits (possibly in several files) applied together. */
export interface Fix {
  readonly title: string;
  readonly edits: readonly TextEdit[];
  /** The clearly right fix (shown first / applied by "fix all"). */
  readonly preferred?: boolean;
}

/** Another place a finding involves (the other side of a collision), with a short message. */
export interface RelatedLocation {
  readonly span: Span;
  readonly message: string;
}

/** The object a finding is about, as output formats show it. */
export interface ObjectRef {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
}

/** One problem found by a rule, located at the exact field it concerns. */
export interface Finding {
  readonly ruleId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly span: Span;
  readonly object?: ObjectRef;
  readonly related: readonly RelatedLocation[];
  readonly fixes: readonly Fix[];
  /** The cluster groups the finding was found in, when it was not found in all of them. */
  readonly clusters?: readonly string[];
  /**
   * For a finding on a rendered object (kustomize / Helm output): where it is in the rendered manifest (a virtual
   * `render:` file of the analysis) and which render made it; `span` is then the source line the user edits.
   */
  readonly rendered?: { readonly span: Span; readonly label: string };
}

/** What a rule's check receives. */
export interface RuleContext {
  readonly model: WorkspaceModel;
  readonly config: CoreConfig;
  /**
   * The loaded files by name (text and line index), for quick fixes that insert text and must match the
   * surrounding indentation. Absent when a caller runs rules on objects alone.
   */
  readonly files?: ReadonlyMap<string, LoadedFile>;
  /** Repository layout (Helm charts, cluster groups); absent when rules run outside analyze(). */
  readonly layout?: RepoLayout;
}

/**
 * A rule: metadata (used for hovers, docs/rules/<id>.md and SARIF) plus a check over the model.
 * One rule per file under rules/, listed in rules/index.ts.
 */
export interface Rule {
  /** kebab-case id, also the file name. */
  readonly id: string;
  readonly title: string;
  /** Default severity; a rule may report some findings at another severity (stated in its explanation). */
  readonly severity: Severity;
  /** Markdown: what kube-proxy / the CNI / the API server does with the value, why it matters, how to fix it. */
  readonly explanation: string;
  /** Kubernetes source paths or documentation URLs (with version) for every behaviour the rule relies on. */
  readonly sources: readonly string[];
  /**
   * True when the rule's quick fixes propose a free port (rules/fixes/free-node-port.ts): one that no claim of the
   * whole model takes and that none of the rule's earlier fixes in the same run proposed, so a fix depends on more
   * than the object it is on. The incremental analysis runs such a rule over the whole model when its fixes can
   * change (core/workspace/incremental.ts).
   */
  readonly freePortFixes?: boolean;
  /**
   * True when the rule judges each object of `model.objects` on its own: its findings on an object (each finding
   * names it as `object`) depend only on that object, its file, the config, the layout and the model's lookups
   * that are complete in every model (`servicesIn`, `workloadsIn`, `namespaces`, the port indexes,
   * `selectedWorkloads` / `selectingServices`), never on the other entries of `model.objects`, `services`,
   * `workloads` or `nodes`. The incremental analysis runs such a rule over the re-checked objects alone, not over
   * the environment objects (ConfigMaps, Nodes, every Ingress…) that the other rules read (core/workspace/incremental.ts).
   */
  readonly judgesEachObject?: boolean;
  /**
   * With {@link judgesEachObject}: true when the rule's findings on an object depend on nothing but that object's
   * own content and its own file's text (and the config and layout): no lookup of other objects at all. The
   * incremental analysis re-runs such a rule only on the objects an edit changed and keeps its findings on the others.
   */
  readonly judgesObjectAlone?: boolean;
  /**
   * True for the rules that report what the API server refuses (and for file-level rules: syntax, skipped files,
   * directive comments): their findings stand in objects the API server rejects. Every other rule's findings that
   * lie in such an object or name it in a related location are left out (kubernetes/api-server/rejection.ts), and
   * they run over the model without such objects, so no message or related location names one.
   */
  readonly reportsRejection?: boolean;
  /**
   * True for the rules whose errors are the rejections that decide which objects are left out of the other rules'
   * findings (kubernetes/api-server/rejection.ts): their pages say so and link the rule index's section on it.
   */
  readonly decidesRejection?: boolean;
  check(ctx: RuleContext): Finding[];
}

/** An {@link ObjectRef} for a model object. */
export function refOf(obj: K8sObject): ObjectRef {
  return { kind: obj.kind, namespace: obj.namespace, name: obj.name, uid: obj.uid };
}
