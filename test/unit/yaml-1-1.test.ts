import { strict as assert } from 'node:assert';
import { loadFile } from '../../server/out/core/load/load-file';
import type { ServiceObject, WorkloadObject } from '../../server/out/core/model/objects';

// Kubernetes decodes manifests with go-yaml v2 (YAML 1.1 scalars): the loader must read the same numbers
// and booleans kubectl does (checked with kubectl 1.32: `kubectl label --local -f FILE x=y -o json`).
describe('YAML 1.1 scalars, as kubectl reads them', () => {
  it('reads octal, underscored and binary integers', () => {
    const f = loadFile('a.yaml', 'apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  type: NodePort\n  ports:\n    - {name: a, port: 80, nodePort: 031502}\n    - {name: b, port: 81, nodePort: 3_1503}\n    - {name: c, port: 82, nodePort: 0b111011111111111}\n');
    assert.deepEqual(f.problems, []);
    assert.deepEqual((f.objects[0] as ServiceObject).ports.map((p) => p.nodePort?.value), [13122, 31503, 30719]);
  });
  it('reads every prefix strconv.ParseInt(base 0) takes (0o, 0O, 0B, 0X, a sign, `_` anywhere) and keeps base-60 text a string, as kubectl 1.31 does', () => {
    const ports = [
      '{name: a, port: 0O120, targetPort: 0X1F90, nodePort: 0o73567}',
      '{name: b, port: 0B1010000, targetPort: +0o17, nodePort: 0b111011101110000}',
      '{name: c, port: 3_0, targetPort: 0o_17, nodePort: 0_x7_780}',
      '{name: d, port: 81, targetPort: -0o1, nodePort: !!float 0o73570}',
      '{name: e, port: 82, targetPort: 0o8, nodePort: 1:20}',
    ];
    const f = loadFile('o.yaml', `apiVersion: v1\nkind: Service\nmetadata: {name: a}\nspec:\n  type: NodePort\n  ports:\n${ports.map((p) => `    - ${p}\n`).join('')}`);
    assert.deepEqual(f.problems, []);
    const s = f.objects[0] as ServiceObject;
    // Values from `kubectl label --local -f o.yaml x=y -o json`: 0o8 and 1:20 stay strings.
    assert.deepEqual(s.ports.map((p) => p.port?.value), [80, 80, 30, 81, 82]);
    assert.deepEqual(s.ports.map((p) => p.targetPort?.value), [8080, 15, 15, -1, '0o8']);
    assert.deepEqual(s.ports.map((p) => p.nodePort?.value), [30583, 30576, 30592, 30584, undefined]);
    assert.equal((s.raw as { spec: { ports: { nodePort: unknown }[] } }).spec.ports[4].nodePort, '1:20');
  });
  it('reads yes/on as true and keeps dates as strings', () => {
    const f = loadFile('p.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: {built: 2024-01-02}}\nspec:\n  hostNetwork: yes\n  containers: [{name: c, image: x}]\n');
    assert.equal((f.objects[0] as WorkloadObject).pod.hostNetwork?.value, true);
    assert.equal(f.objects[0].annotations.built, '2024-01-02');
  });
});
