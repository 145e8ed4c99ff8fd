/**
 * Custom LSP messages shared by the language server (server/src/lsp/) and the VS Code client
 * (client/src/, which imports this file through the TypeScript project reference). Plain types and
 * method names only, so both sides compile it without an LSP dependency.
 */

/** Server → client notification sent after every analysis run: what the status item shows. */
export const STATUS_NOTIFICATION = 'kubeNetlint/status';

/** Parameters of {@link STATUS_NOTIFICATION}. Counts are summed over all workspace folders. */
export interface StatusParams {
  /** Kubernetes objects read from files (the implicit Service default/kubernetes not counted). */
  readonly objects: number;
  /** Findings of every severity. */
  readonly findings: number;
  /** Findings by severity. */
  readonly errors: number;
  readonly warnings: number;
  /** YAML files analysed (including skipped ones). */
  readonly files: number;
  /** Wall time of the last analysis run, in milliseconds. */
  readonly durationMs: number;
  /** Rule ids that crashed in the last run (their findings are missing; details are in the server log). */
  readonly failedRules: readonly string[];
  /** What helm / kustomize rendered, or why nothing was rendered (`not run in Restricted Mode`, `helm not found`). */
  readonly render?: string;
}

/**
 * Settings the server reads per workspace folder (`workspace/configuration` section `kubeNetlint`,
 * or `initializationOptions` / `initializationOptions.kubeNetlint` for clients without it).
 * All keys are optional; `.kube-netlint.yaml` in the folder wins for the keys it sets.
 */
export interface KubeNetlintSettings {
  /** kube-apiserver `--service-node-port-range`, e.g. `"30000-32767"` (inclusive); empty = from the workspace. */
  readonly nodePortRange?: string;
  /** `iptables`, `ipvs`, `nftables`, or `auto` / empty = from the workspace. */
  readonly kubeProxyMode?: string;
  /** Rule id → `error` | `warning` | `info` | `hint` | `off`. */
  readonly rules?: Readonly<Record<string, string>>;
  /** picomatch globs, relative to the workspace folder, of files not to lint. */
  readonly exclude?: readonly string[];
}

/** Initialization options the VS Code client sends (other clients may send settings here instead). */
export interface InitializationOptions {
  /** False in an untrusted (Restricted Mode) workspace: only file analysis runs, nothing that reaches a cluster. */
  readonly workspaceTrusted?: boolean;
  /**
   * True when the client watches YAML files itself and sends workspace/didChangeWatchedFiles (the VS Code
   * client does); otherwise the server registers a watcher with clients that support dynamic registration.
   */
  readonly watchesFiles?: boolean;
  /** True when the client has the node-port map view (VS Code): hovers then link into it (`command:` links). */
  readonly portMapView?: boolean;
  /**
   * True when the client registers {@link SHOW_RULE_DOCUMENTATION_COMMAND} (the VS Code client does): hovers
   * link to it ("Read more") and code actions offer it; other clients get `file:` links to the shipped pages.
   */
  readonly showRuleDocumentationCommand?: boolean;
  /**
   * A folder the server may write its parse cache to (VS Code: the extension's workspace storage folder), so a
   * reopened workspace loads unchanged files from it instead of parsing them again. Absent: no cache.
   */
  readonly cacheFolder?: string;
  readonly kubeNetlint?: KubeNetlintSettings;
}

/** Client command that opens a rule's page shipped in the extension (`docs/rules/<id>.md`); argument: the rule id. */
export const SHOW_RULE_DOCUMENTATION_COMMAND = 'kubeNetlint.showRuleDocumentation';
