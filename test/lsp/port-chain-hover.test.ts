import { strict as assert } from 'node:assert';
import { fixture, TestClient, uriOf } from './lsp-client';

const APP = fixture('..', 'port-chain', 'app.yaml');
const EDGE = fixture('..', 'port-chain', 'edge.yaml');

describe('language server hovers: the port chain', function () {
  this.timeout(30000);
  let client: TestClient;
  const hover = async (path: string, line: number, character: number): Promise<{ value: string; range?: unknown }> => {
    const h = await client.hover(path, line, character);
    return { value: h ? (h.contents as { value: string }).value : '', range: h?.range };
  };

  before(async () => {
    client = await TestClient.start([fixture('..', 'port-chain')]);
    // The first status notification comes after the first analysis of the folder.
    const started = Date.now();
    while (client.statuses.length === 0 && Date.now() - started < 20000) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => {
    assert.ok(client.alive);
    await client.stop();
  });

  it('on an Ingress backend port walks to the Service port, the containerPort and the probe, each with a link', async () => {
    const { value, range } = await hover(EDGE, 10, 60); // `80` of `port: {number: 80}`
    const chain = value.slice(value.indexOf('**Port chain**'));
    assert.equal(chain, [
      '**Port chain**',
      '',
      `- **backend of host shop.example.com path / of Ingress shop/shop: Service web, port 80** — [edge.yaml:11](${uriOf(EDGE)}#L11)`,
      `  - port 80 "http"/TCP of Service shop/web → targetPort "http" — [app.yaml:8](${uriOf(APP)}#L8)`,
      `    - containerPort 8080 "http"/TCP of Deployment shop/web (container web) — [app.yaml:23](${uriOf(APP)}#L23)`,
      `      - readinessProbe of container "web" — [app.yaml:25](${uriOf(APP)}#L25)`,
      `      - allowed by ingress rule #0 of NetworkPolicy shop/web — [edge.yaml:24](${uriOf(EDGE)}#L24)`,
    ].join('\n'));
    assert.deepEqual(range, { start: { line: 10, character: 58 }, end: { line: 10, character: 60 } });
  });

  it('on a containerPort lists what names it upstream and keeps the field explanation first', async () => {
    const { value } = await hover(APP, 22, 30);
    assert.match(value, /^\*\*containerPort 8080\*\*: the port the container listens on/);
    assert.ok(value.includes(`- backend of host shop.example.com path / of Ingress shop/shop — [edge.yaml:11](${uriOf(EDGE)}#L11)`), value);
    assert.ok(value.includes('    - **containerPort 8080 "http"/TCP of Deployment shop/web (container web)**'), value);
  });

  it('on a probe port and on a selector entry', async () => {
    assert.ok((await hover(APP, 24, 44)).value.includes('**readinessProbe of container "web": port "http"**'));
    const selector = (await hover(APP, 4, 20)).value;
    assert.ok(selector.includes(`- **selector of Service shop/web needs pod labels app=web in namespace shop** — [app.yaml:5](${uriOf(APP)}#L5)`), selector);
    assert.ok(selector.includes(`  - matches Deployment shop/web — [app.yaml:13](${uriOf(APP)}#L13)`), selector);
  });
});
