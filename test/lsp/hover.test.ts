import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allRules } from '../../server/out/core/rules/index';
import { ruleSummary } from '../../server/out/lsp/rule-doc-links';
import { fixture, TestClient, uriOf } from './lsp-client';

const AGENTS = fixture('hostports', 'agents.yaml');
const WEB = fixture('hostports', 'web.yaml');

describe('language server hovers on port-bearing fields', function () {
  this.timeout(30000);
  let client: TestClient;
  const hover = async (path: string, line: number, character: number): Promise<string> => {
    const h = await client.hover(path, line, character);
    return h ? (h.contents as { value: string }).value : '';
  };

  before(async () => {
    client = await TestClient.start([fixture('hostports')]);
    await client.waitFor(WEB, (d) => d.length > 0);
    await client.waitFor(AGENTS, (d) => d.length > 0);
  });
  after(async () => {
    assert.ok(client.alive);
    await client.stop();
  });

  it('hostPort lists the other DaemonSet on the same host port, and the findings\' rules', async () => {
    const text = await hover(AGENTS, 17, 25);
    assert.match(text, /^\*\*hostPort 9100\*\*: the CNI portmap plugin DNATs node:9100/m);
    assert.ok(text.includes(`- hostPort 9100/TCP of DaemonSet monitoring/other-exporter (container exporter) — [web.yaml:32](${uriOf(WEB)}#L32)`), text);
    assert.ok(!text.includes('DaemonSet monitoring/node-exporter (container exporter) —'), 'not itself');
    assert.match(text, /\(`hostport-conflict`\)/);
    assert.match(text, /\(`hostport-usage`\)/);
  });

  it('a hostNetwork containerPort is a node port: lists the Service whose nodePort is the same number', async () => {
    const text = await hover(AGENTS, 36, 30);
    assert.match(text, /^\*\*containerPort 30080\*\* of a `hostNetwork` pod: the process binds this port on the node itself/m);
    assert.ok(text.includes(`- nodePort 30080/TCP of Service edge/web — [web.yaml:13](${uriOf(WEB)}#L13)`), text);
  });

  it('nodePort lists the hostNetwork pod on the same port', async () => {
    const text = await hover(WEB, 12, 18);
    assert.ok(text.includes(`- hostNetwork port 30080/TCP of DaemonSet edge/edge-proxy (container proxy) — [agents.yaml:37](${uriOf(AGENTS)}#L37)`), text);
  });

  it('a containerPort of a pod with its own network namespace takes nothing on the node', async () => {
    const text = await hover(AGENTS, 16, 29);
    assert.match(text, /^\*\*containerPort 9100\*\*: the port the container listens on inside the pod's own network namespace/m);
    assert.doesNotMatch(text, /Also used by/);
  });

  it('targetPort lists the selected pods\' containerPort; externalIPs and type explain themselves', async () => {
    assert.ok((await hover(WEB, 11, 20)).includes(`- containerPort 30080 of DaemonSet edge/edge-proxy (container proxy) — [agents.yaml:37](${uriOf(AGENTS)}#L37)`));
    assert.match(await hover(WEB, 7, 20), /^\*\*externalIP 192\.0\.2\.10\*\*: kube-proxy captures traffic to this IP/m);
    assert.match(await hover(WEB, 6, 3), /^\*\*type: NodePort\*\*: a ClusterIP plus a nodePort per port/m);
  });

  it('answers hovers on files that are not open (from the on-disk text) and nothing off the fields', async () => {
    assert.equal(await client.hover(WEB, 3, 8), null); // metadata.name
    assert.match(await hover(WEB, 12, 8), /^\*\*nodePort 30080\*\*/m); // on the key
  });
});

describe('language server hovers: long "Also used by" lists', function () {
  this.timeout(30000);
  it('shows at most 10 other claims of a Service port, then how many more', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kube-netlint-hover-'));
    const services = Array.from({ length: 13 }, (_, i) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: s${i}\nspec:\n  ports:\n    - port: 80\n`).join('---\n');
    writeFileSync(join(dir, 'services.yaml'), services);
    const client = await TestClient.start([dir]);
    try {
      while (!client.statuses.length) await new Promise((r) => setTimeout(r, 20));
      const h = await client.hover(join(dir, 'services.yaml'), 6, 13);
      const text = (h?.contents as { value: string }).value;
      const lines = text.split('\n').filter((l) => l.startsWith('- '));
      assert.equal(lines.length, 11, text);
      assert.equal(lines[0], `- port 80/TCP of Service default/s1 — [services.yaml:15](${uriOf(join(dir, 'services.yaml'))}#L15)`);
      assert.equal(lines[10], '- … and 2 more');
    } finally {
      await client.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('hover summary of a rule (ruleSummary)', () => {
  it('is the start of the rule\'s first paragraph, whole sentences, at most 400 characters, for every rule', () => {
    for (const rule of allRules) {
      const paragraph = rule.explanation.split(/\n\s*\n/)[0].replace(/\s*\n\s*/g, ' ').trim();
      const summary = ruleSummary(rule.explanation);
      const cut = summary.endsWith(' …');
      const text = cut ? summary.slice(0, -2) : summary.replace(/…$/, '');
      assert.ok(paragraph.startsWith(text), `${rule.id}: "${summary}" is not the start of "${paragraph}"`);
      assert.ok(summary.length <= 400 && text.length >= Math.min(80, paragraph.length), `${rule.id}: ${summary.length} characters`);
      if (cut) assert.match(text, /[.!?:;)]$/, `${rule.id}: cut inside a sentence`);
    }
  });

  it('does not end a sentence at a dot inside a word (a Go file name)', () => {
    const summary = ruleSummary(`${'kube-proxy opens the port (pkg/proxy/healthcheck/service_health.go). '.repeat(3)}It answers 200 on nodes with a local endpoint. ${'More words here. '.repeat(20)}`);
    assert.match(summary, /^kube-proxy opens the port \(pkg\/proxy\/healthcheck\/service_health\.go\)\. kube-proxy/);
    assert.match(summary, / …$/);
  });
});

describe('language server hovers on a value taken through an alias', function () {
  this.timeout(30000);
  let dir: string;
  let client: TestClient;
  // Two Services of a kind: List share nodePort 30080 through an anchor: the second one's nodePort is `*np`.
  const LIST = [
    'apiVersion: v1',
    'kind: List',
    'items:',
    '  - apiVersion: v1',
    '    kind: Service',
    '    metadata: {name: a}',
    '    spec:',
    '      type: NodePort',
    '      ports: [{port: 80, nodePort: &np 30080}]',
    '  - apiVersion: v1',
    '    kind: Service',
    '    metadata: {name: b}',
    '    spec:',
    '      type: NodePort',
    '      ports:',
    '        - port: 80',
    '          nodePort: *np',
    '',
  ].join('\n');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'knl-hover-alias-'));
    writeFileSync(join(dir, 'list.yaml'), LIST);
    client = await TestClient.start([dir]);
    await client.waitFor(join(dir, 'list.yaml'), (d) => d.length > 0);
  });
  after(async () => {
    await client.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('explains the anchored value and lists the other Service, on the alias and on its key', async () => {
    const file = join(dir, 'list.yaml');
    const uri = uriOf(file);
    for (const character of [20, 10]) { // on `*np`, then on `nodePort`
      const h = await client.hover(file, 16, character);
      const text = h ? (h.contents as { value: string }).value : '';
      assert.match(text, /^\*\*nodePort 30080\*\*: kube-proxy accepts this port on every node/m, `column ${character}: ${text}`);
      assert.ok(text.includes(`- nodePort 30080/TCP of Service default/a — [list.yaml:9](${uri}#L9)`), text);
      // The finding sits on the alias (where the value is taken): its rule heads the hover there, not on the key.
      if (character === 20) assert.match(text, /^\*\*nodePort claimed twice\*\* \(`nodeport-duplicate`\)/m, text);
      else assert.doesNotMatch(text, /nodeport-duplicate/);
    }
  });
});
