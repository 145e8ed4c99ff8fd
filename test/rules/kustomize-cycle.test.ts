import { strict as assert } from 'node:assert';
import { lint } from '../helpers/lint';

const svc = (name: string, nodePort: number) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  ports:\n    - {port: 80, nodePort: ${nodePort}}\n`;

describe('kustomize-cycle', () => {
  it('reports a → b → a once, on the entry that points back, and keeps the cycle out of other clusters', () => {
    const { findings, analysis } = lint(
      {
        'a/kustomization.yaml': 'resources:\n  - ../b\n  - a.yaml\n',
        'a/a.yaml': svc('a', 30080),
        'b/kustomization.yaml': 'resources:\n  - ../a\n',
        'prod/kustomization.yaml': 'resources:\n  - p.yaml\n',
        'prod/p.yaml': svc('p', 30080),
      },
      { rules: ['kustomize-cycle', 'nodeport-duplicate'] },
    );
    assert.deepEqual(findings.map((f) => [f.ruleId, f.file, f.line, f.column, f.text]), [['kustomize-cycle', 'b/kustomization.yaml', 2, 5, '../a']]);
    assert.equal(findings[0].message, 'kustomization cycle a → b → a: kustomize refuses to build it ("cycle detected"), so none of these folders can be applied; remove the reference from b back to a');
    assert.deepEqual(analysis.layout.groups?.map((g) => [g.name, [...g.files].sort()]), [['a', ['a/a.yaml']], ['prod', ['prod/p.yaml']]]);
  });
  it('is silent for an ordinary base and overlay, and for components', () => {
    const { findings, analysis } = lint(
      {
        'base/kustomization.yaml': 'resources:\n  - a.yaml\n',
        'base/a.yaml': svc('a', 30080),
        'comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\npatches:\n  - path: p.yaml\n',
        'prod/kustomization.yaml': 'resources:\n  - ../base\ncomponents:\n  - ../comp\n',
        'crds/kustomization.yaml': 'resources:\n  - crd.yaml\n',
        'crds/crd.yaml': 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x.example.com\n',
      },
      { rules: ['kustomize-cycle'] },
    );
    assert.deepEqual(findings, []);
    // Neither the Component nor the CRD-only kustomization is an entry point (a cluster of its own).
    assert.deepEqual(analysis.layout.kustomizeEntries.map((e) => e.dir), ['prod']);
  });
});
