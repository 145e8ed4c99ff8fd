/**
 * Small repository trees for the cluster-grouping tests (raw in test/unit/cluster-grouping.test.ts, rendered in
 * test/render/cluster-grouping-render.test.ts): the same files, so both modes are held to the same findings.
 */

/** A DaemonSet on the node's network (its containerPorts are node ports), without a namespace unless given. */
export const hostNetworkDaemonSet = (name: string, ports: readonly string[], namespace?: string): string =>
  [
    'apiVersion: apps/v1',
    'kind: DaemonSet',
    'metadata:',
    `  name: ${name}`,
    ...(namespace ? [`  namespace: ${namespace}`] : []),
    'spec:',
    `  selector: {matchLabels: {app: ${name}}}`,
    '  template:',
    `    metadata: {labels: {app: ${name}}}`,
    '    spec:',
    '      hostNetwork: true',
    '      containers:',
    `        - name: ${name}`,
    '          image: example/speaker:1.0',
    '          ports:',
    ...ports.map((p) => {
      const [port, protocol] = p.split('/');
      return `            - {containerPort: ${port}, protocol: ${protocol ?? 'TCP'}}`;
    }),
    '',
  ].join('\n');

/** A DaemonSet with a hostPort (not on the node's network). */
export const hostPortDaemonSet = (name: string, hostPort: number): string =>
  `apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: ${name}\nspec:\n  selector: {matchLabels: {app: ${name}}}\n  template:\n    metadata: {labels: {app: ${name}}}\n    spec:\n      containers:\n        - name: ${name}\n          image: example/${name}:1.0\n          ports:\n            - {containerPort: 8080, hostPort: ${hostPort}}\n`;

/**
 * An upstream project laid out as metallb is: kustomize bases without namespaces (one Service written in namespace
 * `system`), a `native` overlay that sets `namespace: lb-system`, an `frr` overlay on top of it that sets
 * `namespace: frr-system` (the outermost wins), and the committed output of both overlays in `config/manifests/`.
 */
export function upstreamTree(): Record<string, string> {
  const speaker = hostNetworkDaemonSet('speaker', ['7946/TCP', '7946/UDP']);
  const webhook = (ns: string) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: webhook\n  namespace: ${ns}\nspec:\n  selector: {app: speaker}\n  ports: [{port: 443, targetPort: 7946}]\n`;
  const role = 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: lb:speaker\nrules: []\n';
  const frrConfig = (ns: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: frr-startup\n  namespace: ${ns}\ndata: {}\n`;
  const output = (ns: string, extra = '') => [role, hostNetworkDaemonSet('speaker', ['7946/TCP', '7946/UDP'], ns), webhook(ns), extra].filter(Boolean).join('---\n');
  return {
    'lb/config/controllers/kustomization.yaml': 'resources:\n  - speaker.yaml\n  - role.yaml\n',
    'lb/config/controllers/speaker.yaml': speaker,
    'lb/config/controllers/role.yaml': role,
    'lb/config/webhook/kustomization.yaml': 'resources:\n  - service.yaml\n',
    'lb/config/webhook/service.yaml': webhook('system'),
    'lb/config/native/kustomization.yaml': 'namespace: lb-system\nresources:\n  - ../controllers\n  - ../webhook\n',
    'lb/config/frr/kustomization.yaml': 'namespace: frr-system\nresources:\n  - ../native\n  - frr-cm.yaml\n',
    'lb/config/frr/frr-cm.yaml': frrConfig('frr-system'),
    'lb/config/manifests/lb-native.yaml': output('lb-system'),
    'lb/config/manifests/lb-frr.yaml': output('frr-system', frrConfig('frr-system')),
  };
}
