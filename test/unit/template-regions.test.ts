import { strict as assert } from 'node:assert';
import { regionsOfObjects, templateRegions } from '../../server/out/core/render/template-regions';
import { nodesAtFieldPath, splitFieldPath, copiedValue } from '../../server/out/core/render/replacements';
import { parseDocument } from 'yaml';

describe('Helm template documents of rendered objects', () => {
  const svc = (name: string): string => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n`;
  const loopFirst = `{{- range .Values.services }}\n---\n${svc('{{ .name }}')}{{- end }}\n---\n${svc('fixed')}---\n${svc('last')}`;

  it('splits a template at --- lines, drops documents of template actions only, and marks those a range encloses', () => {
    const regions = templateRegions(loopFirst);
    assert.deepEqual(regions.map((r) => [r.looped, r.body.includes('fixed'), r.body.includes('last')]), [[true, false, false], [false, true, false], [false, false, true]]);
    // An if block is not a loop.
    assert.deepEqual(templateRegions(`{{- if .Values.on }}\n---\n${svc('a')}{{- end }}\n---\n${svc('b')}`).map((r) => r.looped), [false, false]);
  });

  it('gives the loop\'s document to every item between the literal anchors, and each fixed document its own object', () => {
    const regions = templateRegions(loopFirst);
    assert.deepEqual(regionsOfObjects(regions, 'Service', ['a', 'b', 'c', 'fixed', 'last']), [0, 0, 0, 1, 2]);
    // Fixed documents without literal names, around one loop: counted from both ends.
    const around = `${svc('{{ .Release.Name }}-first')}---\n{{- range .Values.services }}\n---\n${svc('{{ .name }}')}{{- end }}\n---\n${svc('{{ .Release.Name }}-end')}`;
    assert.deepEqual(regionsOfObjects(templateRegions(around), 'Service', ['r-first', 'x', 'y', 'r-end']), [0, 1, 1, 2]);
  });

  it('tells nothing when two loops sit between the same anchors (never another document\'s line)', () => {
    const two = `{{- range .Values.a }}\n---\n${svc('{{ . }}')}{{- end }}\n{{- range .Values.b }}\n---\n${svc('{{ . }}')}{{- end }}\n`;
    assert.deepEqual(regionsOfObjects(templateRegions(two), 'Service', ['x', 'y', 'z']), [undefined, undefined, undefined]);
    // As many objects as documents: one each, in order.
    assert.deepEqual(regionsOfObjects(templateRegions(two), 'Service', ['x', 'y']), [0, 1]);
  });
});

describe('kustomize replacement field paths', () => {
  const root = parseDocument('spec:\n  ports:\n    - name: http\n      nodePort: 30080\n    - name: https\n      nodePort: 30443\ndata:\n  a.b: x/y/z\n').contents;
  const values = (path: string): unknown[] => nodesAtFieldPath(root, path).map((n) => (n.node as { value?: unknown }).value);

  it('splits on dots outside brackets and reads indexes, [key=value] selectors and *', () => {
    assert.deepEqual(splitFieldPath('spec.ports.[name=a.b].nodePort'), ['spec', 'ports', '[name=a.b]', 'nodePort']);
    assert.deepEqual(splitFieldPath('spec.containers[name=web].image'), ['spec', 'containers', '[name=web]', 'image']);
    assert.deepEqual(values('spec.ports.1.nodePort'), [30443]);
    assert.deepEqual(values('spec.ports.[name=http].nodePort'), [30080]);
    assert.deepEqual(values('spec.ports.*.nodePort'), [30080, 30443]);
    assert.deepEqual(values('spec.ports.[name=none].nodePort'), []);
    assert.deepEqual(values('spec.missing'), []);
  });

  it('copies the whole source value, or with a delimiter the part at the index', () => {
    assert.equal(copiedValue('x/y/z', undefined), 'x/y/z');
    assert.equal(copiedValue('x/y/z', '/', 1), 'y');
    assert.equal(copiedValue('x/y/z', '/', 5), undefined);
  });
});
