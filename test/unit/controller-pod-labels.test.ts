import { strict as assert } from 'node:assert';
import { loadFile } from '../../server/out/core/load/load-file';
import type { WorkloadObject } from '../../server/out/core/model/objects';
import { controllerLabelText, podSelectorMatches, serviceSelectorMatches } from '../../server/out/core/kubernetes/controller-manager/pod-labels';

const workloadOf = (text: string): WorkloadObject => {
  const o = loadFile('w.yaml', text).objects[0];
  assert.equal(o.category, 'workload');
  return o as WorkloadObject;
};
const sts = (spec: string) => workloadOf(`apiVersion: apps/v1
kind: StatefulSet
metadata: {name: kafka, namespace: k}
spec:
${spec}
  selector: {matchLabels: {app: kafka}}
  template:
    metadata: {labels: {app: kafka}}
    spec: {containers: [{name: c, image: x}]}
`);
const job = (kind: 'Job' | 'CronJob', spec: string, name = 'bench') => {
  const pod = `template:\n  metadata: {labels: {app: b}}\n  spec: {restartPolicy: Never, containers: [{name: c, image: x}]}`;
  const body = (indent: string) => `${spec}\n${pod}`.split('\n').map((l) => indent + l).join('\n');
  return workloadOf(kind === 'Job'
    ? `apiVersion: batch/v1\nkind: Job\nmetadata: {name: ${name}, namespace: j}\nspec:\n${body('  ')}\n`
    : `apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: ${name}, namespace: j}\nspec:\n  schedule: "* * * * *"\n  jobTemplate:\n    spec:\n${body('      ')}\n`);
};
const deploy = (kind: string) => workloadOf(`apiVersion: apps/v1\nkind: ${kind}\nmetadata: {name: web, namespace: d}\nspec:\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: x}]}\n`);

describe('labels the controllers put on their Pods', () => {
  it('StatefulSet: pod-name <name>-<ordinal> and pod-index for ordinals below replicas', () => {
    const w = sts('  replicas: 3');
    for (const v of ['kafka-0', 'kafka-1', 'kafka-2']) assert.equal(serviceSelectorMatches({ app: 'kafka', 'statefulset.kubernetes.io/pod-name': v }, w), true, v);
    for (const v of ['kafka-3', 'kafka-01', 'kafka-', 'web-0', 'kafka-x', 'kafka-1 ']) assert.equal(serviceSelectorMatches({ 'statefulset.kubernetes.io/pod-name': v }, w), false, v);
    assert.equal(serviceSelectorMatches({ 'apps.kubernetes.io/pod-index': '2' }, w), true);
    assert.equal(serviceSelectorMatches({ 'apps.kubernetes.io/pod-index': '3' }, w), false);
    // One Pod must carry both: kafka-1 has index 1, not 2.
    assert.equal(serviceSelectorMatches({ 'statefulset.kubernetes.io/pod-name': 'kafka-1', 'apps.kubernetes.io/pod-index': '1' }, w), true);
    assert.equal(serviceSelectorMatches({ 'statefulset.kubernetes.io/pod-name': 'kafka-1', 'apps.kubernetes.io/pod-index': '2' }, w), false);
    // The template labels still have to hold.
    assert.equal(serviceSelectorMatches({ app: 'other', 'statefulset.kubernetes.io/pod-name': 'kafka-0' }, w), false);
    assert.equal(serviceSelectorMatches({ 'controller-revision-hash': 'kafka-5d8f' }, w), true);
    assert.equal(controllerLabelText(w, 'statefulset.kubernetes.io/pod-name'), 'kafka-0 … kafka-2 for replicas 3');
  });

  it('StatefulSet: replicas absent is 1, spec.ordinals.start shifts the ordinals, a non-literal replicas allows any ordinal', () => {
    assert.equal(serviceSelectorMatches({ 'statefulset.kubernetes.io/pod-name': 'kafka-0' }, sts('  serviceName: kafka')), true);
    assert.equal(serviceSelectorMatches({ 'statefulset.kubernetes.io/pod-name': 'kafka-1' }, sts('  serviceName: kafka')), false);
    const shifted = sts('  replicas: 2\n  ordinals: {start: 5}');
    assert.deepEqual(['kafka-4', 'kafka-5', 'kafka-6', 'kafka-7'].map((v) => serviceSelectorMatches({ 'statefulset.kubernetes.io/pod-name': v }, shifted)), [false, true, true, false]);
    assert.equal(controllerLabelText(shifted, 'apps.kubernetes.io/pod-index'), '5 … 6 for replicas 2');
    assert.equal(serviceSelectorMatches({ 'apps.kubernetes.io/pod-index': '0' }, sts('  replicas: 0')), false);
    assert.equal(serviceSelectorMatches({ 'apps.kubernetes.io/pod-index': '40' }, sts('  replicas: "3"')), true);
  });

  it('matchExpressions on controller labels: In, NotIn, Exists, DoesNotExist', () => {
    const w = sts('  replicas: 2');
    const expr = (key: string, operator: string, values: string[] = []) => ({ matchLabels: {}, matchExpressions: [{ key, operator, values }] });
    assert.equal(podSelectorMatches(expr('statefulset.kubernetes.io/pod-name', 'In', ['kafka-1', 'kafka-9']), w), true);
    assert.equal(podSelectorMatches(expr('statefulset.kubernetes.io/pod-name', 'In', ['kafka-2', 'kafka-9']), w), false);
    assert.equal(podSelectorMatches(expr('apps.kubernetes.io/pod-index', 'NotIn', ['0']), w), true);
    assert.equal(podSelectorMatches(expr('apps.kubernetes.io/pod-index', 'NotIn', ['0', '1']), w), false);
    assert.equal(podSelectorMatches(expr('statefulset.kubernetes.io/pod-name', 'Exists'), w), true);
    assert.equal(podSelectorMatches(expr('statefulset.kubernetes.io/pod-name', 'DoesNotExist'), w), false);
    assert.equal(podSelectorMatches(expr('controller-revision-hash', 'DoesNotExist'), w), false);
    assert.equal(podSelectorMatches(expr('pod-template-hash', 'DoesNotExist'), w), true); // not a Deployment
  });

  it('Job: job-name is its name, controller-uid is unknowable, the completion index only for Indexed Jobs', () => {
    const j = job('Job', 'completions: 1');
    for (const key of ['batch.kubernetes.io/job-name', 'job-name']) {
      assert.equal(serviceSelectorMatches({ [key]: 'bench' }, j), true, key);
      assert.equal(serviceSelectorMatches({ [key]: 'other' }, j), false, key);
    }
    assert.equal(serviceSelectorMatches({ 'batch.kubernetes.io/controller-uid': '1b2c', 'controller-uid': '1b2c' }, j), true);
    assert.equal(serviceSelectorMatches({ 'batch.kubernetes.io/job-completion-index': '0' }, j), false);
    const indexed = job('Job', 'completionMode: Indexed\ncompletions: 3');
    assert.deepEqual(['0', '2', '3'].map((v) => serviceSelectorMatches({ 'batch.kubernetes.io/job-completion-index': v }, indexed)), [true, true, false]);
    assert.equal(controllerLabelText(indexed, 'batch.kubernetes.io/job-completion-index'), '0 … 2 for completions 3');
    // manualSelector: the API server adds none of these labels.
    assert.equal(serviceSelectorMatches({ 'batch.kubernetes.io/job-name': 'bench' }, job('Job', 'manualSelector: true\nselector: {matchLabels: {app: b}}')), false);
    // A CronJob's Jobs are named <cronjob>-<schedule suffix>: any value may match.
    const cron = job('CronJob', 'completions: 1', 'nightly');
    assert.equal(serviceSelectorMatches({ 'batch.kubernetes.io/job-name': 'nightly-28512345' }, cron), true);
    assert.equal(serviceSelectorMatches({ 'batch.kubernetes.io/job-name': 'nightly-28512345', app: 'x' }, cron), false);
  });

  it('Deployment pod-template-hash, DaemonSet controller-revision-hash and pod-template-generation; none for a ReplicaSet', () => {
    assert.equal(serviceSelectorMatches({ app: 'web', 'pod-template-hash': '7c9f' }, deploy('Deployment')), true);
    assert.equal(serviceSelectorMatches({ app: 'web', 'controller-revision-hash': '7c9f' }, deploy('Deployment')), false);
    assert.equal(serviceSelectorMatches({ 'controller-revision-hash': '7c9f', 'pod-template-generation': '2' }, deploy('DaemonSet')), true);
    assert.equal(serviceSelectorMatches({ app: 'web', 'pod-template-hash': '7c9f' }, deploy('ReplicaSet')), false);
    assert.equal(serviceSelectorMatches({}, deploy('Deployment')), false);
  });
});
