import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, ConfigErrors, DEFAULT_CONFIG, parsePortRange } from '../../server/out/core/config/config';
import { findConfigFile, parseConfigText, parseConfigTextLeniently, readConfigFile } from '../../server/out/node/config-file';

const FILE = '/repo/.kube-netlint.yaml';
/** The ConfigError a config text raises, as [key, line, message]. */
function error(text: string): [string, number | undefined, string] {
  try {
    parseConfigText(text, FILE);
  } catch (err) {
    assert.ok(err instanceof ConfigError, `not a ConfigError: ${err}`);
    return [err.key, err.line, err.message];
  }
  assert.fail('no error raised');
}

describe('config (.kube-netlint.yaml)', () => {
  it('reports every problem of the file at once, in line order (not the first one checked)', () => {
    const text = 'namespace: x\nrules:\n  no-such-rule: off\n  hostport-usage: loud\nkubeProxyMode: IPVS\nfoo: 1\n';
    let caught: unknown;
    try {
      parseConfigText(text, FILE);
    } catch (err) {
      caught = err;
    }
    assert.ok(caught instanceof ConfigErrors, `not ConfigErrors: ${caught}`);
    assert.deepEqual(caught.errors.map((e) => [e.line, e.key]), [[3, 'rules.no-such-rule'], [4, 'rules.hostport-usage'], [5, 'kubeProxyMode'], [6, 'foo']]);
    assert.equal(caught.message.split('\n')[3], `${FILE}:6: 'foo': unknown key (known keys: nodePortRange, kubeProxyMode, nodes, namespace, exclude, rules, cni, clusters, render)`);
    // One problem stays a plain ConfigError; the language server's lenient read lists the same problems.
    assert.deepEqual(error('foo: 1\n').slice(0, 2), ['foo', 1]);
    assert.equal(parseConfigTextLeniently(text, FILE).problems.length, 4);
  });

  it('reads every key and fills defaults', () => {
    const config = parseConfigText([
      'nodePortRange: "20000-22767"',
      'kubeProxyMode: ipvs',
      'namespace: team-a',
      'nodes:',
      '  - {name: node-1, addresses: [10.0.0.11, "fd00::11"]}',
      'exclude: ["vendor/**", "**/*.tmpl.yaml"]',
      'rules: {nodeport-duplicate: warning, service-spec-invalid: "off"}',
      'cni: [Calico]',
    ].join('\n'), FILE);
    assert.deepEqual(config.nodePortRange, { min: 20000, max: 22767 });
    assert.equal(config.kubeProxyMode, 'ipvs');
    assert.equal(config.namespace, 'team-a');
    assert.deepEqual(config.nodes, [{ name: 'node-1', addresses: ['10.0.0.11', 'fd00::11'] }]);
    assert.deepEqual(config.exclude, ['vendor/**', '**/*.tmpl.yaml']);
    assert.deepEqual(config.rules, { 'nodeport-duplicate': 'warning', 'service-spec-invalid': 'off' });
    assert.deepEqual(config.cni, ['calico']);
    assert.equal(parseConfigText('', FILE), DEFAULT_CONFIG);
    assert.equal(parseConfigText('# only comments\n', FILE), DEFAULT_CONFIG);
    assert.equal(parseConfigText('kubeProxyMode: iptables', FILE).nodePortRange, undefined, 'unset range = from the workspace or the default');
  });

  it('names the file, the key and its line for an unknown key', () => {
    const [key, line, message] = error('nodePortRange: "30000-32767"\nnodePortRang: "1-2"\n');
    assert.deepEqual([key, line], ['nodePortRang', 2]);
    assert.equal(message, "/repo/.kube-netlint.yaml:2: 'nodePortRang': unknown key (known keys: nodePortRange, kubeProxyMode, nodes, namespace, exclude, rules, cni, clusters, render)");
  });

  it('rejects bad values with the key, line and what is wrong', () => {
    assert.deepEqual(error('\nnodePortRange: "32767-30000"'), ['nodePortRange', 2, `${FILE}:2: 'nodePortRange': "32767-30000" must be MIN-MAX with 1 <= MIN <= MAX <= 65535`]);
    assert.deepEqual(error('nodePortRange: 30000'), ['nodePortRange', 1, `${FILE}:1: 'nodePortRange': must be a string like "30000-32767"`]);
    assert.deepEqual(error('kubeProxyMode: userspace'), ['kubeProxyMode', 1, `${FILE}:1: 'kubeProxyMode': must be one of iptables, ipvs, nftables (got "userspace")`]);
    assert.deepEqual(error('namespace: ""'), ['namespace', 1, `${FILE}:1: 'namespace': must be a non-empty string`]);
    assert.deepEqual(error('exclude: vendor/**'), ['exclude', 1, `${FILE}:1: 'exclude': must be a list of strings`]);
    assert.deepEqual(error('clusters:\n  dev: ["envs/dev/**"]\n  "": ["x/**"]'), ['clusters.', 3, `${FILE}:3: 'clusters.': a cluster name must not be empty (findings name the cluster they concern)`]);
    assert.deepEqual(error('- a\n- b'), ['', undefined, `${FILE}: the config must be a mapping of keys to values`]);
  });

  it('checks rule ids and severities, pointing at the rule line', () => {
    assert.deepEqual(error('rules:\n  nodeport-duplicate: warning\n  no-such-rule: "off"'), ['rules.no-such-rule', 3, `${FILE}:3: 'rules.no-such-rule': unknown rule id ("kube-netlint rules" lists them)`]);
    assert.deepEqual(error('rules:\n  nodeport-duplicate: fatal'), ['rules.nodeport-duplicate', 2, `${FILE}:2: 'rules.nodeport-duplicate': must be off, error, warning, info or hint (got "fatal")`]);
  });

  it('checks nodes, pointing at the list item', () => {
    const nodes = 'nodes:\n  - name: a\n    addresses: [10.0.0.1]\n  - name: b\n    address: 10.0.0.2\n';
    assert.deepEqual(error(nodes), ['nodes.1.address', 5, `${FILE}:5: 'nodes.1.address': unknown key (a node has name and addresses)`]);
    assert.deepEqual(error('nodes:\n  - addresses: [10.0.0.1]'), ['nodes.0.name', 2, `${FILE}:2: 'nodes.0.name': each node needs a string name`]);
    assert.deepEqual(error('nodes:\n  - name: a\n    addresses:\n      - 10.0.0.1\n      - node-a.local'), ['nodes.0.addresses.1', 5, `${FILE}:5: 'nodes.0.addresses.1': "node-a.local" is not an IP address`]);
  });

  it('reports YAML syntax errors with their line', () => {
    const [key, line, message] = error('rules:\n  a: b\n c: d\n');
    assert.deepEqual([key, line], ['', 3]);
    assert.match(message, /^\/repo\/\.kube-netlint\.yaml:3: not valid YAML: /);
  });

  it('parses port ranges inclusively, also in the kube-apiserver base+size form', () => {
    assert.deepEqual(parsePortRange('30000-32767'), { min: 30000, max: 32767 });
    assert.deepEqual(parsePortRange(' 1 - 65535 '), { min: 1, max: 65535 });
    assert.deepEqual(parsePortRange('30000+2767'), { min: 30000, max: 32767 });
    assert.throws(() => parsePortRange('0-100'), /must be MIN-MAX/);
    // A single port is a valid --service-node-port-range for Kubernetes (PortRange.Set): the range N-N.
    assert.deepEqual(parsePortRange('31000'), { min: 31000, max: 31000 });
    assert.throws(() => parsePortRange('30000-'), /is not a port range like 30000-32767/);
  });

  it('rejects unknown CNIs, namespaces that are not DNS-1123 labels, invalid globs and several documents', () => {
    assert.deepEqual(error('cni: [calico, nosuchcni]\n'), ['cni.1', 1, '/repo/.kube-netlint.yaml:1: \'cni.1\': "nosuchcni" is not a CNI or add-on kube-netlint knows the ports of (known: calico, cilium, flannel, weave, kube-router, metallb)']);
    const [key, line, message] = error('namespace: "Bad_Namespace!"\n');
    assert.deepEqual([key, line], ['namespace', 1]);
    assert.match(message, /"Bad_Namespace!" is not a namespace name: a lowercase RFC 1123 label must consist of lower case alphanumeric characters/);
    assert.deepEqual(error('exclude:\n  - "vendor/**"\n  - "["\n').slice(0, 2), ['exclude.1', 3]);
    assert.match(error('exclude: ["["]\n')[2], /'exclude\.0': "\[" is not a valid glob: Missing closing: "\]"/);
    assert.deepEqual(error('clusters:\n  dev: ["envs/{dev"]\n').slice(0, 2), ['clusters.dev.0', 2]);
    assert.deepEqual(error('kubeProxyMode: ipvs\n---\nnamespace: a\n'), ['', 2, '/repo/.kube-netlint.yaml:2: holds more than one YAML document (`---`): a config is one mapping; merge the documents or remove the separator']);
    assert.deepEqual(parseConfigText('nodePortRange: "31000"\n', FILE).nodePortRange, { min: 31000, max: 31000 });
  });

  describe('on disk', () => {
    let dir: string;
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'knl-config-'));
      mkdirSync(join(dir, 'apps', 'web'), { recursive: true });
      writeFileSync(join(dir, '.kube-netlint.yaml'), 'kubeProxyMode: ipvs\n');
      writeFileSync(join(dir, 'apps', 'web', 'svc.yaml'), 'apiVersion: v1\n');
    });
    after(() => rmSync(dir, { recursive: true, force: true }));

    it('finds the config from a linted folder or file upwards', () => {
      assert.equal(findConfigFile(join(dir, 'apps', 'web')), join(dir, '.kube-netlint.yaml'));
      assert.equal(findConfigFile(join(dir, 'apps', 'web', 'svc.yaml')), join(dir, '.kube-netlint.yaml'));
      assert.equal(readConfigFile(join(dir, '.kube-netlint.yaml')).kubeProxyMode, 'ipvs');
    });

    it('names a render.helm chart folder that holds no Chart.yaml (missing, or empty), with its key and line; the CLI and the language server both refuse it', () => {
      mkdirSync(join(dir, 'charts', 'empty'), { recursive: true });
      mkdirSync(join(dir, 'charts', 'web'), { recursive: true });
      writeFileSync(join(dir, 'charts', 'web', 'Chart.yaml'), 'apiVersion: v2\nname: web\nversion: 0.1.0\n');
      const config = join(dir, 'release.kube-netlint.yaml');
      const text = (chart: string): string => `kubeProxyMode: ipvs\nrender:\n  helm:\n    - chart: charts/web\n    - release: second\n      chart: ${chart}\n`;
      for (const chart of ['charts/nonexist', 'charts/empty']) {
        assert.throws(
          () => parseConfigText(text(chart), config),
          (err: unknown) => err instanceof ConfigError && err.key === 'render.helm.1.chart' && err.line === 6
            && err.message === `${config}:6: 'render.helm.1.chart': no Chart.yaml in "${chart}": this release would not be rendered; give the chart's folder, relative to this file`,
        );
        const lenient = parseConfigTextLeniently(text(chart), config);
        assert.equal(lenient.config.render, undefined, 'the editor drops the render key, not the file');
        assert.equal(lenient.config.kubeProxyMode, 'ipvs');
        assert.deepEqual(lenient.problems, [`${config}:6: 'render.helm.1.chart': no Chart.yaml in "${chart}": this release would not be rendered; give the chart's folder, relative to this file ('render' is ignored; the rest of the file applies)`]);
      }
      assert.deepEqual(parseConfigText(text('charts/web'), config).render?.helm?.map((r) => r.chart), ['charts/web', 'charts/web'], 'a folder with Chart.yaml is accepted');
    });

    it('names an unreadable config file', () => {
      const missing = join(dir, 'nope.yaml');
      assert.throws(() => readConfigFile(missing), (err: unknown) => err instanceof ConfigError && err.message === `${missing}: cannot read the config file (ENOENT)`);
    });
  });
});
