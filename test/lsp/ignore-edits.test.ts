import { strict as assert } from 'node:assert';
import { parseAllDocuments } from 'yaml';
import { loadFile } from '../../server/out/core/load/load-file';
import { applyOffsetEdits, ignoreLineEdit, ignoreObjectEdit } from '../../server/out/lsp/ignore-edits';

const ignoreObject = (text: string, uid: string, rule = 'nodeport-duplicate'): string | undefined => {
  const edit = ignoreObjectEdit(text, uid, rule);
  return edit && applyOffsetEdits(text, [edit]);
};

describe('lsp ignore edits: "Ignore <rule> for this object"', () => {
  it('adds the key as the first annotation, at the indentation of the others, keeping comments', () => {
    const text = 'apiVersion: v1\nkind: Service\nmetadata:\n    name: a # the name\n    annotations:\n        # owner\n        team: x\nspec: {}\n';
    assert.equal(
      ignoreObject(text, 'f#0'),
      'apiVersion: v1\nkind: Service\nmetadata:\n    name: a # the name\n    annotations:\n        kube-netlint.io/ignore: "nodeport-duplicate"\n        # owner\n        team: x\nspec: {}\n',
    );
  });

  it('adds annotations: to metadata with one indentation step measured from the file', () => {
    const text = '# top\napiVersion: v1\nkind: Service\nmetadata:\n   name: a\n   namespace: b\nspec: {}\n';
    assert.equal(ignoreObject(text, 'f#0'), '# top\napiVersion: v1\nkind: Service\nmetadata:\n   annotations:\n      kube-netlint.io/ignore: "nodeport-duplicate"\n   name: a\n   namespace: b\nspec: {}\n');
  });

  it('extends an existing ignore list and keeps other rules', () => {
    const text = 'kind: Service\napiVersion: v1\nmetadata:\n  name: a\n  annotations:\n    kube-netlint.io/ignore: hostport-usage  # why\n';
    assert.equal(ignoreObject(text, 'f#0'), 'kind: Service\napiVersion: v1\nmetadata:\n  name: a\n  annotations:\n    kube-netlint.io/ignore: "hostport-usage,nodeport-duplicate"  # why\n');
    assert.equal(ignoreObject(text, 'f#0', 'hostport-usage'), undefined, 'already ignored: no edit');
  });

  it('adds the rule before a " -- reason" of the ignore list, so it is read as an id', () => {
    const text = (value: string) => `kind: Service\napiVersion: v1\nmetadata:\n  name: a\n  annotations:\n    kube-netlint.io/ignore: ${value}\n`;
    assert.equal(ignoreObject(text('"hostport-usage -- node agent"'), 'f#0'), text('"hostport-usage,nodeport-duplicate -- node agent"'));
    assert.equal(ignoreObject(text('"-- shared on purpose"'), 'f#0'), text('"nodeport-duplicate -- shared on purpose"'));
    assert.equal(ignoreObject(text('"hostport-usage -- not nodeport-duplicate"'), 'f#0'), text('"hostport-usage,nodeport-duplicate -- not nodeport-duplicate"'), 'a mention in the reason is no id');
  });

  it('edits flow-style metadata and annotations', () => {
    assert.equal(ignoreObject('kind: Service\napiVersion: v1\nmetadata: {name: a}\n', 'f#0'), 'kind: Service\napiVersion: v1\nmetadata: {annotations: {kube-netlint.io/ignore: "nodeport-duplicate"}, name: a}\n');
    assert.equal(ignoreObject('kind: Service\napiVersion: v1\nmetadata:\n  name: a\n  annotations: {}\n', 'f#0'), 'kind: Service\napiVersion: v1\nmetadata:\n  name: a\n  annotations: {kube-netlint.io/ignore: "nodeport-duplicate"}\n');
    assert.equal(ignoreObject('kind: Service\napiVersion: v1\nmetadata:\n  name: a\n  annotations:\n', 'f#0'), 'kind: Service\napiVersion: v1\nmetadata:\n  name: a\n  annotations: {kube-netlint.io/ignore: "nodeport-duplicate"}\n');
  });

  it('finds the right document of a stream and the right item of a kind: List', () => {
    const text = 'kind: ConfigMap\napiVersion: v1\nmetadata:\n  name: c\n---\nkind: List\napiVersion: v1\nitems:\n- kind: Service\n  apiVersion: v1\n  metadata:\n    name: a\n- kind: Service\n  apiVersion: v1\n  metadata:\n    name: b\n';
    const out = ignoreObject(text, 'f#1/1')!;
    assert.equal(out, text.replace('    name: b\n', '    annotations:\n      kube-netlint.io/ignore: "nodeport-duplicate"\n    name: b\n'));
    const loaded = loadFile('f', out);
    assert.deepEqual(loaded.objects.map((o) => [o.name, o.annotations['kube-netlint.io/ignore']]), [['c', undefined], ['a', undefined], ['b', 'nodeport-duplicate']]);
  });

  it('refuses metadata given through an alias and documents with syntax errors', () => {
    assert.equal(ignoreObject('base: &m {name: a}\nkind: Service\napiVersion: v1\nmetadata: *m\n', 'f#0'), undefined);
    assert.equal(ignoreObject('kind: Service\nmetadata:\n  name: [a\n', 'f#0'), undefined);
  });

  it('keeps CRLF line ends', () => {
    const out = ignoreObject('kind: Service\r\napiVersion: v1\r\nmetadata:\r\n  name: a\r\n', 'f#0')!;
    assert.equal(out, 'kind: Service\r\napiVersion: v1\r\nmetadata:\r\n  annotations:\r\n    kube-netlint.io/ignore: "nodeport-duplicate"\r\n  name: a\r\n');
    assert.equal(parseAllDocuments(out)[0].errors.length, 0);
  });
});

describe('lsp ignore edits: "Ignore <rule> on this line"', () => {
  it('inserts the directive above the line with its indentation; the loader sees it', () => {
    const text = 'spec:\n  ports:\n    - nodePort: 30080\n';
    const offset = text.indexOf('30080');
    const edit = ignoreLineEdit(text, offset, 'nodeport-duplicate')!;
    const out = applyOffsetEdits(text, [edit]);
    assert.equal(out, 'spec:\n  ports:\n    # kube-netlint-disable-next-line nodeport-duplicate\n    - nodePort: 30080\n');
    assert.deepEqual([...loadFile('f', out).suppressions.get(4)!], ['nodeport-duplicate']);
  });

  it('appends to a directive already on the line above, and not twice', () => {
    const text = 'a:\n  # kube-netlint-disable-next-line hostport-usage  \n  hostPort: 80\n';
    const out = applyOffsetEdits(text, [ignoreLineEdit(text, text.indexOf('80'), 'host-port-reserved')!]);
    assert.equal(out, 'a:\n  # kube-netlint-disable-next-line hostport-usage host-port-reserved  \n  hostPort: 80\n');
    assert.equal(ignoreLineEdit(out, out.indexOf('80\n'), 'hostport-usage'), undefined);
  });

  it('appends before a " -- reason", so the new id is read as an id', () => {
    const text = 'a:\n  # kube-netlint-disable-next-line hostport-usage -- node agent\n  hostPort: 80\n';
    const out = applyOffsetEdits(text, [ignoreLineEdit(text, text.indexOf('80'), 'host-port-reserved')!]);
    assert.equal(out, 'a:\n  # kube-netlint-disable-next-line hostport-usage host-port-reserved -- node agent\n  hostPort: 80\n');
    assert.deepEqual([...loadFile('f', out).suppressions.get(3)!], ['hostport-usage', 'host-port-reserved']);
  });
});
