import { strict as assert } from 'node:assert';
import { cpuTimed } from '../helpers/cpu-time';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile, LoadedFile } from '../../server/out/core/load/load-file';
import type { K8sObject, ServiceObject } from '../../server/out/core/model/objects';
import { buildModel } from '../../server/out/core/model/workspace-model';
import { MAX_COLLISION_SIDES } from '../../server/out/core/rules/report/collisions';
import { lint } from '../helpers/lint';
import { formatPortsMarkdown, formatPortsText } from '../../server/out/cli/ports-format';
import type { ClaimJson, PortMapDocument } from '../../server/out/core/port-map/document';
import { portChainAt } from '../../server/out/core/references/port-chain';
import type { Analysis } from '../../server/out/core/analyze';
import { portChainSection } from '../../server/out/lsp/port-chain-hover';

/** One loaded file whose objects are `count` copies of the first object of `text`, with distinct names (no YAML parse per copy). */
function copies(text: string, count: number, vary: (o: K8sObject, i: number) => K8sObject): LoadedFile {
  const file = loadFile('many.yaml', text);
  const objects = Array.from({ length: count }, (_, i) => vary(file.objects[0], i));
  return { ...file, objects };
}

const nodePortService = (i: number, nodePort: number): string =>
  `apiVersion: v1\nkind: Service\nmetadata: {name: s${i}}\nspec:\n  type: NodePort\n  selector: {app: a${i}}\n  ports: [{port: 80, nodePort: ${nodePort}}]\n`;

describe('scale: huge workspaces finish, with bounded findings', () => {
  it('builds the model of 200,000 objects in one file (an argument spread of all objects overflowed the stack)', () => {
    const file = copies('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm}\n', 200_000, (o, i) => ({ ...o, uid: `many.yaml#${i}`, name: `cm-${i}`, identity: `/ConfigMap/default/cm-${i}` }));
    const [[model, analysis], ms] = cpuTimed(() => [buildModel([file], DEFAULT_CONFIG), analyze([file], DEFAULT_CONFIG)] as const);
    assert.equal(model.objects.length, 200_001, 'plus the implicit default/kubernetes');
    assert.deepEqual(analysis.failures, []);
    assert.ok(ms < 30_000, `${ms} ms of CPU`);
  });

  it(`reports the first ${MAX_COLLISION_SIDES} sides of a nodePort collision one by one and the others in one summary`, () => {
    const text = Array.from({ length: 45 }, (_, i) => nodePortService(i, 30080)).join('---\n');
    const { findings } = lint(text, { rules: ['nodeport-duplicate'] });
    assert.equal(findings.length, MAX_COLLISION_SIDES + 1);
    assert.ok(findings.every((f) => f.related.length <= MAX_COLLISION_SIDES));
    assert.match(findings[0].message, /^nodePort 30080 is also claimed by Service default\/s1, Service default\/s2 and 42 more:/);
    const summary = findings[MAX_COLLISION_SIDES];
    assert.equal(summary.object, 'Service default/s20');
    assert.equal(summary.line, 20 * 8 + 7, "at the nodePort of the 21st Service (8 lines each)");
    assert.equal(summary.message, 'nodePort 30080 is claimed by 45 objects: the first 20 are reported one by one, these 25 more only here (nodePort 30080 of Service default/s20, nodePort 30080 of Service default/s21 and 23 more); each collides the same way');
    assert.deepEqual(summary.fixes, []);
  });

  it('lints 100,000 NodePort Services sharing 1,000 nodePorts in linear time (their collision lists grew with the square)', () => {
    const file = copies(nodePortService(0, 30000), 100_000, (o, i) => {
      const s = o as ServiceObject;
      const port = s.ports[0];
      return { ...s, uid: `many.yaml#${i}`, name: `s${i}`, identity: `/Service/default/s${i}`, selector: { app: `a${i}` }, ports: [{ ...port, nodePort: { ...port.nodePort!, value: 30000 + (i % 1000) } }] };
    });
    const [analysis, elapsed] = cpuTimed(() => analyze([file], DEFAULT_CONFIG));
    const duplicates = analysis.findings.filter((f) => f.ruleId === 'nodeport-duplicate');
    assert.equal(duplicates.length, 1000 * (MAX_COLLISION_SIDES + 1));
    assert.ok(analysis.findings.every((f) => f.related.length <= MAX_COLLISION_SIDES));
    assert.ok(elapsed < 60_000, `${elapsed} ms of CPU`);
  });

  it('prints the ports report of 200,000 claims as text and Markdown (the table width was a Math.max over an argument spread)', () => {
    const claim = (i: number): ClaimJson => ({
      id: i, port: 30000 + (i % 2768), protocol: 'TCP', kind: 'nodePort', owner: { kind: 'Service', namespace: 'default', name: `s${i}` },
      component: null, container: null, portName: null, hostIP: null, address: null,
      location: { file: 'many.yaml', line: i * 7 + 6, column: 32, endLine: i * 7 + 6, endColumn: 37 }, rendered: null,
      nodes: { scope: 'every-node', text: 'every node', selector: null, node: null, replicas: null, names: null, addressOf: null },
      inactive: null, uncertain: null, collisions: [],
    });
    const claims = Array.from({ length: 200_000 }, (_, i) => claim(i));
    const doc: PortMapDocument = {
      version: 1,
      clusterGroups: [{
        name: '', nodePortRange: { min: 30000, max: 32767, source: 'default' }, ports: [{ port: 30000, collision: null, claims }],
        bands: [{ band: 'dynamic', min: 30000, max: 32767, size: 2768, used: 2768, allocated: 2768, free: 0, fill: 1, freeIntervals: [] }], automatic: { nodePorts: 0, healthCheckNodePorts: 0 },
      }],
    };
    const text = formatPortsText(doc).split('\n');
    assert.equal(text.length, 200_000 + 6, 'heading, blank, column names, 200,000 claims, blank, the band, final newline');
    assert.equal(text[200_004], '  dynamic band  30000-32767  2768 ports  2768 used (100.0%)  2768 allocated  0 free: none');
    assert.equal(text[200_002].replace(/ {2,}/g, ' | '), `${30000 + (199_999 % 2768)} | TCP | nodePort | Service default/s199999 | many.yaml:1399999 | every node | -`);
    const markdown = formatPortsMarkdown(doc).split('\n');
    assert.equal(markdown.filter((l) => l.startsWith('| 3')).length, 200_000);
  });

  it('hovers a Service port selecting 150,000 pod templates: the chain lists 20 steps and "and N more" (steps were pushed by argument spread)', () => {
    const text = 'apiVersion: v1\nkind: Service\nmetadata: {name: web}\nspec:\n  selector: {app: web}\n  ports: [{port: 80, targetPort: 8080}]\n';
    const deployment = copies('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers: [{name: c, image: nginx, ports: [{containerPort: 8080}]}]\n', 150_000, (o, i) => ({ ...o, uid: `many.yaml#${i}`, name: `d${i}`, identity: `apps/Deployment/default/d${i}` }));
    const service = loadFile('web.yaml', text);
    const before = process.cpuUsage();
    const model = buildModel([service, deployment], DEFAULT_CONFIG);
    const svc = model.objects.find((o) => o.file === 'web.yaml')!;
    const offset = text.indexOf('port: 80') + 6;
    const chain = portChainAt(model, svc, offset)!;
    assert.equal(chain.steps.length, 1 + 150_000, 'the Service port and one containerPort per Deployment');
    const analysis = { model, clusterModels: new Map(), layout: {} } as unknown as Analysis;
    const section = portChainSection(analysis, 'web.yaml', svc, offset, (s) => `${s.file}#${s.start}`)!;
    assert.ok(section.text.endsWith(`\n- … and ${150_001 - 20} more`), section.text.slice(-200));
    const used = process.cpuUsage(before);
    assert.ok(used.user + used.system < 60_000_000, `${Math.round((used.user + used.system) / 1000)} ms of CPU`);
  });
});
