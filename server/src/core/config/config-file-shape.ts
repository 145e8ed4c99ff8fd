/**
 * The shape of `.kube-netlint.yaml` as the user writes it (before {@link parseConfig} turns it into a
 * CoreConfig). The JSON Schema shipped for editors (schemas/kube-netlint.schema.json, `npm run docs`) is
 * generated from these types and their doc comments; test/unit/config-schema.test.ts checks that it is
 * current and that it accepts and rejects what parseConfig does.
 */
import type { KubeProxyMode, Severity } from './config';

/** A rule's severity, or `off` to turn the rule off. */
export type RuleSetting = Severity | 'off';

/** A node the workspace has no Node object for. */
export interface ConfigFileNode {
  /** The node's name (`kubernetes.io/hostname`). */
  name: string;
  /** The node's IPv4 / IPv6 addresses (InternalIP, ExternalIP). */
  addresses?: string[];
}

/** kube-netlint configuration (`.kube-netlint.yaml`). Every key is optional. */
export interface KubeNetlintConfigFile {
  /**
   * kube-apiserver `--service-node-port-range`, inclusive: `MIN-MAX` (or `MIN+OFFSET`, i.e. MIN to MIN+OFFSET, or one port `N`), ports 1-65535.
   * Default: read from a kube-apiserver static Pod or kubeadm ClusterConfiguration in the workspace, else 30000-32767.
   * @pattern ^\s*\d+\s*([-+]\s*\d+\s*)?$
   * @examples ["30000-32767"]
   */
  nodePortRange?: string;
  /**
   * kube-proxy mode of the cluster. Default: read from a KubeProxyConfiguration, the kube-proxy ConfigMap
   * or `--proxy-mode` in the workspace, else unknown.
   */
  kubeProxyMode?: KubeProxyMode | null;
  /**
   * Namespace of objects that name none.
   * @minLength 1
   * @default "default"
   */
  namespace?: string;
  /** Node addresses, when no Node objects are in the workspace. */
  nodes?: ConfigFileNode[] | null;
  /**
   * CNIs and add-ons the cluster runs (their ports become errors in host-port-reserved), e.g. `calico`,
   * `cilium`, `flannel`, `weave`, `kube-router`, `metallb`.
   * @examples [["calico"]]
   */
  cni?: string[] | null;
  /**
   * Globs (picomatch) of files not to lint, relative to this file's folder.
   * @examples [["vendor/**", "**\/*.tmpl.yaml"]]
   */
  exclude?: string[] | null;
  /** Rule id → severity (`error`, `warning`, `info`, `hint`) or `off`. `kube-netlint rules` lists the ids. */
  rules?: { [ruleId: string]: RuleSetting } | null;
  /**
   * Several clusters in one repository: cluster name → globs of its files (relative to this file's folder).
   * A file no group matches belongs to every group.
   * @examples [{"dev": ["envs/dev/**", "base/**"], "prod": ["envs/prod/**", "base/**"]}]
   */
  clusters?: { [cluster: string]: string[] } | null;
  /** What kube-netlint renders with kustomize and helm (when they are found) before linting. */
  render?: ConfigFileRender | null;
}

/** `render:` — kustomize overlays and Helm releases to render. */
export interface ConfigFileRender {
  /**
   * `false`: lint kustomize sources as written (patches and transformers not applied).
   * @default true
   */
  kustomize?: boolean;
  /** Helm releases to render; when present, replaces the default of one release per chart (chart name, own values.yaml). */
  helm?: ConfigFileHelmRelease[] | null;
}

/** A `--set` value: a string, a number or a boolean. */
export type SetValue = string | number | boolean;

/** One Helm release to render with `helm template`. Paths are relative to this file's folder. */
export interface ConfigFileHelmRelease {
  /**
   * Folder with Chart.yaml.
   * @minLength 1
   * @examples ["charts/web"]
   */
  chart: string;
  /**
   * Release name (default: the chart's name).
   * @minLength 1
   */
  release?: string;
  /**
   * Release namespace (default: the config's `namespace`).
   * @minLength 1
   */
  namespace?: string;
  /**
   * `-f` values files, in order (files of the repository, never URLs).
   * @examples [["charts/web/values-prod.yaml"]]
   */
  values?: string[];
  /**
   * `--set` pairs: value key → value (a string, number or boolean).
   * @examples [{"service.type": "NodePort"}]
   */
  set?: { [key: string]: SetValue };
  /**
   * The cluster group (a name under `clusters`) the rendered objects belong to (default: every group).
   * @minLength 1
   */
  cluster?: string;
}
