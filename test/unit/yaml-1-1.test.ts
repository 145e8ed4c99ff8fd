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
  it('reads yes/on as true and keeps dates as strings', () => {
    const f = loadFile('p.yaml', 'apiVersion: v1\nkind: Pod\nmetadata: {name: p, annotations: {built: 2024-01-02}}\nspec:\n  hostNetwork: yes\n  containers: [{name: c, image: x}]\n');
    assert.equal((f.objects[0] as WorkloadObject).pod.hostNetwork?.value, true);
    assert.equal(f.objects[0].annotations.built, '2024-01-02');
  });
});
