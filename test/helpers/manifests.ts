/**
 * Manifest builders shared by rule tests. The text they produce is part of the tests' expectations
 * (lines and columns), so change it only together with those tests.
 */

/**
 * A workload whose pod template has one container with the given `ports` lines (already indented by
 * 12 spaces, e.g. `'            - containerPort: 9100\n              hostPort: 9100'`); `spec` is inserted
 * right after `spec:` of the pod template (e.g. `'\n      hostNetwork: true'`). Ports start at line 16.
 */
export function podWorkload(o: { kind?: string; name: string; ns: string; container?: string; image?: string; ports: string; spec?: string }): string {
  return `
apiVersion: apps/v1
kind: ${o.kind ?? 'Deployment'}
metadata:
  name: ${o.name}
  namespace: ${o.ns}
spec:
  selector: {matchLabels: {app: ${o.name}}}
  template:
    metadata: {labels: {app: ${o.name}}}
    spec:${o.spec ?? ''}
      containers:
        - name: ${o.container ?? 'main'}
          image: ${o.image ?? 'img'}
          ports:
${o.ports}`;
}

/** The calico-node DaemonSet (hostNetwork) with one container and the given `env` lines (indented by 12 spaces). */
export function calicoNodeDaemonSet(image: string, env: string, containerName = 'calico-node'): string {
  return `
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: calico-node
  namespace: kube-system
spec:
  selector: {matchLabels: {k8s-app: calico-node}}
  template:
    metadata: {labels: {k8s-app: calico-node}}
    spec:
      hostNetwork: true
      containers:
        - name: ${containerName}
          image: ${image}
          env:
${env}`;
}
