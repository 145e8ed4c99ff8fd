import { strict as assert } from 'node:assert';
import { analyze } from '../../server/out/core/analyze';
import { DEFAULT_CONFIG } from '../../server/out/core/config/config';
import { loadFile, LoadedFile } from '../../server/out/core/load/load-file';
import type { K8sObject, ServiceObject } from '../../server/out/core/model/objects';
import { buildModel } from '../../server/out/core/model/workspace-model';
import { MAX_COLLISION_SIDES } from '../../server/out/core/rules/report/collisions';
import { lint } from '../helpers/lint';

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
    const started = Date.now();
    const model = buildModel([file], DEFAULT_CONFIG);
    assert.equal(model.objects.length, 200_001, 'plus the implicit default/kubernetes');
    const analysis = analyze([file], DEFAULT_CONFIG);
    assert.deepEqual(analysis.failures, []);
    assert.ok(Date.now() - started < 30_000, `${Date.now() - started} ms`);
  });

  it(`reports the first ${MAX_COLLISION_SIDES} sides of a nodePort collision one by one and the others in one summary`, () => {
    const text = Array.from({ length: 45 }, (_, i) => nodePortService(i, 30080)).join('---\n');
    const { findings } = lint(text, { rules: ['nodeport-duplicate'] });
    assert.equal(findings.length, MAX_COLLISION_SIDES + 1);
    assert.ok(findings.every((f) => f.related.length <= MAX_COLLISION_SIDES));
    assert.match(findings[0].message, /^nodePort 30080 is also claimed by Service default\/s1, Service default\/s2, Service default\/s3, Service default\/s4, Service default\/s5 and 39 more:/);
    const summary = findings[MAX_COLLISION_SIDES];
    assert.equal(summary.object, 'Service default/s20');
    assert.equal(summary.line, 20 * 8 + 7, "at the nodePort of the 21st Service (8 lines each)");
    assert.equal(summary.message, 'nodePort 30080 is claimed by 45 objects: the first 20 are reported one by one, these 25 more only here (nodePort 30080 of Service default/s20, nodePort 30080 of Service default/s21, nodePort 30080 of Service default/s22, nodePort 30080 of Service default/s23, nodePort 30080 of Service default/s24 and 20 more); each collides the same way');
    assert.deepEqual(summary.fixes, []);
  });

  it('lints 100,000 NodePort Services sharing 1,000 nodePorts in linear time (their collision lists grew with the square)', () => {
    const file = copies(nodePortService(0, 30000), 100_000, (o, i) => {
      const s = o as ServiceObject;
      const port = s.ports[0];
      return { ...s, uid: `many.yaml#${i}`, name: `s${i}`, identity: `/Service/default/s${i}`, selector: { app: `a${i}` }, ports: [{ ...port, nodePort: { ...port.nodePort!, value: 30000 + (i % 1000) } }] };
    });
    const started = Date.now();
    const analysis = analyze([file], DEFAULT_CONFIG);
    const elapsed = Date.now() - started;
    const duplicates = analysis.findings.filter((f) => f.ruleId === 'nodeport-duplicate');
    assert.equal(duplicates.length, 1000 * (MAX_COLLISION_SIDES + 1));
    assert.ok(analysis.findings.every((f) => f.related.length <= MAX_COLLISION_SIDES));
    assert.ok(elapsed < 60_000, `${elapsed} ms`);
  });
});
