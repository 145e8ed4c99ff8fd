import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseCliOptions } from '../../server/out/cli/options';
import { runCli } from '../../server/out/cli/run';
import type { PortMapDocument } from '../../server/out/core/port-map/document';
import { clusterRoutes } from './cluster-fixtures';
import { FakeApiServer, startFakeApiServer, writeKubeconfig } from './fake-api-server';
import { assertNoSecrets } from './secrets';

/** The workspace of the tests: manifests a team keeps in its repository. */
const WORKSPACE: Record<string, string> = {
  // Wants nodePort 31234, which the API server gave shop/checkout automatically (only the cluster knows).
  'payments.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: payments\n  namespace: team-b\nspec:\n  type: NodePort\n  selector: {app: payments}\n  externalIPs: [10.0.0.12]\n  ports:\n    - name: http\n      port: 80\n      nodePort: 31234\n',
  // The workspace version of shop/frontend moves it to 30081, so shop/legacy may take 30080.
  'shop/services.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: frontend\n  namespace: shop\nspec:\n  type: NodePort\n  selector: {app: frontend}\n  ports:\n    - name: http\n      port: 80\n      nodePort: 30081\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: legacy\n  namespace: shop\nspec:\n  type: NodePort\n  selector: {app: legacy}\n  ports:\n    - name: http\n      port: 80\n      nodePort: 30080\n',
  // The Kafka story: a hostNetwork broker port equal to an auto-allocated healthCheckNodePort.
  'kafka.yaml': 'apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: kafka\n  namespace: data\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: kafka}}\n  template:\n    metadata: {labels: {app: kafka}}\n    spec:\n      hostNetwork: true\n      containers:\n        - name: broker\n          image: apache/kafka:3.7.0\n          ports:\n            - containerPort: 32001\n',
};

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kn-ws-'));
  for (const [name, text] of Object.entries(WORKSPACE)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

interface JsonFinding { ruleId: string; severity: string; message: string; file: string; line: number; column: number; related: { file: string; line: number; message: string }[] }

async function cli(args: string[], cwd: string, kubeconfig: string): Promise<{ code: number; out: string; err: string }> {
  const saved = process.env.KUBECONFIG;
  process.env.KUBECONFIG = kubeconfig;
  let out = '';
  let err = '';
  try {
    const code = await runCli(args, { cwd, stdout: (t) => (out += t), stderr: (t) => (err += t), readStdin: () => '' });
    return { code, out, err };
  } finally {
    if (saved === undefined) delete process.env.KUBECONFIG;
    else process.env.KUBECONFIG = saved;
  }
}

describe('CLI --cluster', () => {
  let server: FakeApiServer;
  before(async () => {
    server = await startFakeApiServer(clusterRoutes());
  });
  after(async () => {
    assert.deepEqual(server.writes, [], 'the CLI sent a non-GET request');
    await server.close();
  });

  it('lints the workspace against the live cluster: auto-allocated nodePort, healthCheckNodePort, node addresses, Calico', async () => {
    const { code, out, err } = await cli(['--format', 'json', '--cluster', '.'], workspace(), writeKubeconfig(server.url));
    assert.equal(code, 1);
    assert.match(err, /^kube-netlint: cluster prod-admin: read 5 Services, 7 Pods, 3 Nodes, 1 kube-proxy ConfigMap, 2 DaemonSets in kube-system \(synced [\d:]+ UTC\); 1 replaced by workspace manifests\n$/);
    const findings = (JSON.parse(out) as { findings: JsonFinding[] }).findings;
    const pick = (ruleId: string) => findings.filter((f) => f.ruleId === ruleId).map((f) => [f.file, f.line, f.column, f.severity, f.related.map((r) => r.file)]);
    assert.deepEqual(pick('nodeport-duplicate'), [
      ['cluster:prod-admin/Service/shop/checkout', 1, 1, 'error', ['payments.yaml']],
      ['payments.yaml', 13, 17, 'error', ['cluster:prod-admin/Service/shop/checkout']],
    ]);
    assert.match(findings.find((f) => f.file === 'payments.yaml' && f.ruleId === 'nodeport-duplicate')!.message, /^nodePort 31234 is also claimed by Service shop\/checkout:/);
    assert.deepEqual(pick('externalip-is-node-ip'), [['payments.yaml', 9, 17, 'error', ['cluster:prod-admin/Node/node-2']]]);
    assert.match(findings.find((f) => f.ruleId === 'externalip-is-node-ip')!.message, /belongs to Node node-2 .*IPVS mode \(ConfigMap kube-system\/kube-proxy\)/);
    assert.deepEqual(pick('calico-node-address-mismatch'), [['cluster:prod-admin/Node/node-3', 1, 1, 'warning', []]]);
    const kafka = findings.filter((f) => f.file === 'kafka.yaml' && f.ruleId === 'host-port-conflicts-healthcheck-nodeport');
    assert.deepEqual(kafka.map((f) => [f.line, f.column, f.related.map((r) => r.file)]), [[17, 30, ['cluster:prod-admin/Service/monitoring/grafana']]]);
    assert.match(kafka[0].message, /32001/);
    // Shadowed: the cluster's shop/frontend (nodePort 30080) is replaced by the workspace's, so legacy's 30080 is free.
    assert.ok(!findings.some((f) => f.message.includes('30080')), 'shop/legacy collides with the replaced cluster twin');
    // Notices about cluster-only objects (e.g. hostport-usage of a running Pod) are left out.
    assert.ok(!findings.some((f) => f.file.startsWith('cluster:') && f.severity === 'info' && f.related.every((r) => r.file.startsWith('cluster:'))));
    assertNoSecrets(out + err);
  });

  it('kube-netlint ports --cluster: the nodePorts and healthCheckNodePorts only the cluster knows join the map', async () => {
    const { code, out } = await cli(['ports', '--format', 'json', '--cluster', '.'], workspace(), writeKubeconfig(server.url));
    assert.equal(code, 0);
    const ports = (JSON.parse(out) as PortMapDocument).clusterGroups[0].ports;
    const at = (port: number) => ports.find((p) => p.port === port)!.claims.map((c) => [c.kind, c.owner?.name, c.location?.file, c.location?.line, c.collisions.map((x) => x.rule).join()]);
    assert.deepEqual(at(31234), [
      ['nodePort', 'checkout', 'cluster:prod-admin/Service/shop/checkout', null, 'nodeport-duplicate'],
      ['nodePort', 'payments', 'payments.yaml', 13, 'nodeport-duplicate'],
    ]);
    assert.deepEqual(at(32001), [
      ['healthCheckNodePort', 'grafana', 'cluster:prod-admin/Service/monitoring/grafana', null, 'host-port-conflicts-healthcheck-nodeport'],
      ['hostNetwork', 'kafka', 'kafka.yaml', 17, 'host-port-conflicts-healthcheck-nodeport'],
    ]);
    // The workspace's shop/frontend replaces its cluster twin: 30080 is held by shop/legacy only.
    assert.deepEqual(at(30080).map((c) => c[1]), ['legacy']);
  });

  it('SARIF: findings on live-cluster objects are notifications of the run, not results code scanning cannot place', async () => {
    const { code, out } = await cli(['--format', 'sarif', '--cluster', '.'], workspace(), writeKubeconfig(server.url));
    assert.equal(code, 1);
    const run = (JSON.parse(out) as import('sarif').Log).runs[0];
    const uris = run.results!.map((r) => r.locations![0].physicalLocation!.artifactLocation!.uri!);
    assert.ok(uris.length > 0 && uris.every((u) => !u.startsWith('cluster:')), uris.join(', '));
    assert.ok(run.results!.some((r) => r.ruleId === 'nodeport-duplicate' && uris[run.results!.indexOf(r)] === 'payments.yaml'), 'the workspace side stays a result');
    const notes = run.invocations![0].toolExecutionNotifications!.map((n) => [n.associatedRule?.id, n.level, /\(on the live-cluster object (cluster:[^)]+)\)$/.exec(n.message.text!)?.[1]]);
    assert.deepEqual(notes, [
      ['calico-ip-autodetection', 'error', 'cluster:prod-admin/DaemonSet/kube-system/calico-node'],
      ['calico-node-address-mismatch', 'warning', 'cluster:prod-admin/Node/node-3'],
      ['hostport-shadows-service-port', 'error', 'cluster:prod-admin/Pod/ingress-nginx/ingress-nginx-controller-5bq8d'],
      ['hostport-shadows-service-port', 'error', 'cluster:prod-admin/Pod/ingress-nginx/ingress-nginx-controller-5bq8d'],
      ['externaltrafficpolicy-local-healthcheck', 'note', 'cluster:prod-admin/Service/monitoring/grafana'],
      ['host-port-conflicts-healthcheck-nodeport', 'error', 'cluster:prod-admin/Service/monitoring/grafana'],
      ['nodeport-duplicate', 'error', 'cluster:prod-admin/Service/shop/checkout'],
    ]);
    assert.equal(run.invocations![0].executionSuccessful, true);
  });

  it('prints cluster objects as cluster:<context>/<kind>/<namespace>/<name> in text output', async () => {
    const { out } = await cli(['--cluster=prod-admin', '.'], workspace(), writeKubeconfig(server.url));
    assert.match(out, /^cluster:prod-admin\/Service\/shop\/checkout: error nodeport-duplicate: nodePort 31234 is also claimed by Service team-b\/payments/m);
    assert.match(out, /^ {4}cluster:prod-admin\/Service\/shop\/checkout: nodePort 31234 of Service shop\/checkout$/m);
    assert.match(out, /^cluster:prod-admin\/Node\/node-3: warning calico-node-address-mismatch: Node node-3: Calico uses 172\.17\.0\.1/m);
  });

  it('still lints the workspace when the context is missing, with one clear message and no secrets', async () => {
    const kubeconfig = writeKubeconfig(server.url);
    const { code, out, err } = await cli(['--format', 'json', '--cluster', 'staging', '.'], workspace(), kubeconfig);
    assert.equal(err, `kube-netlint: cluster: kubeconfig ${kubeconfig}: context "staging" not found (contexts: prod-admin, other)\n`);
    const findings = (JSON.parse(out) as { findings: JsonFinding[] }).findings;
    assert.ok(!findings.some((f) => f.file.startsWith('cluster:')));
    assert.equal(code, 0);
    assertNoSecrets(out + err);
  });

  it('--require-cluster: exits 2 with the reason when the cluster cannot be read, and lints as --cluster when it can', async () => {
    const kubeconfig = writeKubeconfig(server.url);
    const missing = await cli(['--format', 'json', '--require-cluster', '--cluster', 'staging', '.'], workspace(), kubeconfig);
    assert.deepEqual([missing.code, missing.out], [2, '']);
    assert.equal(missing.err, `kube-netlint: --require-cluster: cluster: kubeconfig ${kubeconfig}: context "staging" not found (contexts: prod-admin, other)\n`);
    // Nothing listens on port 1: every list fails, the run stops before any report (CI fails instead of passing green).
    const down = await cli(['--require-cluster', '.'], workspace(), writeKubeconfig('https://127.0.0.1:1'));
    assert.equal(down.code, 2);
    assert.match(down.err, /^kube-netlint: --require-cluster: cluster prod-admin at https:\/\/127\.0\.0\.1:1 is unreachable: ECONNREFUSED/);
    const ports = await cli(['ports', '--require-cluster', '.'], workspace(), writeKubeconfig('https://127.0.0.1:1'));
    assert.equal(ports.code, 2);
    // Read whole: the same run as --cluster (current-context), findings on the cluster's objects included.
    const up = await cli(['--format', 'json', '--require-cluster', '.'], workspace(), kubeconfig);
    assert.equal(up.code, 1);
    assert.ok((JSON.parse(up.out) as { findings: JsonFinding[] }).findings.some((f) => f.file === 'cluster:prod-admin/Service/shop/checkout'));
    assertNoSecrets(missing.err + down.err + up.out + up.err);
  });

  it('works from the esbuild bundle, which loads client-node from dist/kube-client.js', async function () {
    const dist = join(__dirname, '..', '..', 'dist');
    if (!existsSync(join(dist, 'cli.js')) || !existsSync(join(dist, 'kube-client.js'))) this.skip(); // `npm run build` makes them
    const run = promisify(execFile);
    const env = { ...process.env, KUBECONFIG: writeKubeconfig(server.url) };
    const result = await run(process.execPath, [join(dist, 'cli.js'), '--format', 'json', '--cluster', 'prod-admin', '.'], { cwd: workspace(), env }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    assert.equal(result.code, 1);
    const findings = (JSON.parse(result.stdout) as { findings: JsonFinding[] }).findings;
    assert.deepEqual(findings.filter((f) => f.ruleId === 'nodeport-duplicate').map((f) => f.file), ['cluster:prod-admin/Service/shop/checkout', 'payments.yaml']);
    assert.match(result.stderr, /^kube-netlint: cluster prod-admin: read 5 Services/);
  });

  it('takes --cluster, --cluster=CONTEXT and --cluster CONTEXT out of the arguments', () => {
    const exists = (p: string) => p === 'manifests';
    const parse = (argv: string[]) => {
      const o = parseCliOptions(argv, exists);
      return { paths: o.paths, cluster: o.cluster };
    };
    assert.deepEqual(parse(['--cluster', 'manifests']), { paths: ['manifests'], cluster: '' });
    assert.deepEqual(parse(['--cluster', 'kind-kind', 'manifests']), { paths: ['manifests'], cluster: 'kind-kind' });
    assert.deepEqual(parse(['--cluster=arn:aws:eks:eu-west-1:1:cluster/prod', 'manifests']), { paths: ['manifests'], cluster: 'arn:aws:eks:eu-west-1:1:cluster/prod' });
    assert.deepEqual(parse(['manifests', '--cluster', '--format', 'json']), { paths: ['manifests'], cluster: '' });
    assert.equal(parseCliOptions(['manifests', '--cluster', '--format', 'json'], exists).format, 'json');
    assert.deepEqual(parse(['manifests']), { paths: ['manifests'], cluster: undefined });
    assert.deepEqual(parse(['--', '--cluster']), { paths: ['--cluster'], cluster: undefined });
  });
});
