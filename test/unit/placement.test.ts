import { strict as assert } from 'node:assert';
import { canShareNode, nodeLabelsOf, pinnedNode } from '../../server/out/core/kubernetes/scheduler/placement';
import { lint } from '../helpers/lint';

/** A workload of `kind` whose pod spec carries `spec` (YAML lines at pod-spec indentation). */
function workload(kind: string, spec: string) {
  const podSpec = spec
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => `      ${l}`)
    .join('\n');
  const text = kind === 'Pod'
    ? `apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n${podSpec.replace(/^ {4}/gm, '')}\n  containers: [{name: c, image: x}]\n`
    : `apiVersion: apps/v1\nkind: ${kind}\nmetadata: {name: w}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n${podSpec}\n      containers: [{name: c, image: x}]\n`;
  const { analysis } = lint(text);
  assert.equal(analysis.model.workloads.length, 1, text);
  return analysis.model.workloads[0];
}

const affinity = (key: string, op: string, values: string[]) =>
  `affinity:\n  nodeAffinity:\n    requiredDuringSchedulingIgnoredDuringExecution:\n      nodeSelectorTerms:\n        - matchExpressions:\n            - {key: ${key}, operator: ${op}, values: [${values.join(', ')}]}`;

describe('placement.canShareNode', () => {
  it('two unconstrained DaemonSets certainly meet; a DaemonSet covers a narrower one', () => {
    assert.equal(canShareNode(workload('DaemonSet', ''), workload('DaemonSet', '')), 'certain');
    assert.equal(canShareNode(workload('DaemonSet', ''), workload('DaemonSet', 'nodeSelector: {role: edge}')), 'certain');
    assert.equal(canShareNode(workload('DaemonSet', 'nodeSelector: {kubernetes.io/os: linux}'), workload('DaemonSet', 'nodeSelector: {kubernetes.io/os: linux, role: edge}')), 'certain');
  });

  it('partially overlapping DaemonSets only possibly meet; disjoint selectors never', () => {
    assert.equal(canShareNode(workload('DaemonSet', 'nodeSelector: {role: edge}'), workload('DaemonSet', 'nodeSelector: {zone: a}')), 'possible');
    assert.equal(canShareNode(workload('DaemonSet', 'nodeSelector: {role: edge}'), workload('DaemonSet', 'nodeSelector: {role: db}')), 'never');
    assert.equal(canShareNode(workload('DaemonSet', affinity('role', 'In', ['edge'])), workload('DaemonSet', affinity('role', 'NotIn', ['edge']))), 'never');
    assert.equal(canShareNode(workload('DaemonSet', affinity('gpu', 'Exists', [])), workload('DaemonSet', affinity('gpu', 'DoesNotExist', []))), 'never');
  });

  it('pinned pods: same node certain, other node never, DaemonSet covering it certain', () => {
    const a = workload('Pod', 'nodeName: node-a');
    assert.equal(pinnedNode(a), 'node-a');
    assert.equal(canShareNode(a, workload('Deployment', 'nodeSelector: {kubernetes.io/hostname: node-a}')), 'certain');
    assert.equal(canShareNode(a, workload('Pod', 'nodeName: node-b')), 'never');
    assert.equal(canShareNode(a, workload('DaemonSet', '')), 'certain');
    // The DaemonSet's selector can be checked against node-a's labels only when the Node is declared.
    const edge = workload('DaemonSet', 'nodeSelector: {role: edge}');
    assert.equal(canShareNode(a, edge), 'possible');
    assert.equal(canShareNode(a, edge, nodeLabelsOf([{ name: 'node-a', nodeLabels: { role: 'edge' } }])), 'certain');
    assert.equal(canShareNode(a, edge, nodeLabelsOf([{ name: 'node-a', nodeLabels: { role: 'db' } }])), 'never');
  });

  it('two Deployments possibly meet; a DaemonSet on every node certainly meets any Deployment', () => {
    assert.equal(canShareNode(workload('Deployment', ''), workload('Deployment', '')), 'possible');
    assert.equal(canShareNode(workload('Deployment', 'nodeSelector: {zone: a}'), workload('DaemonSet', '')), 'certain');
    assert.equal(canShareNode(workload('Deployment', ''), workload('DaemonSet', 'nodeSelector: {zone: a}')), 'possible');
  });
});
