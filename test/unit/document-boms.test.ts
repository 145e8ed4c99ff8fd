import { strict as assert } from 'node:assert';
import { withoutDocumentStartBoms } from '../../server/out/core/load/document-boms';
import { IncrementalFile } from '../../server/out/core/load/incremental-file';
import { loadFile } from '../../server/out/core/load/load-file';
import { lint } from '../helpers/lint';

const BOM = '\uFEFF';
const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
const service = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: b\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: 20000\n';

describe('a byte order mark that starts a document after ---, as kubectl reads it', () => {
  for (const parser of ['events', 'yaml'] as const) {
    it(`reads the document whole, with spans in the text as written (${parser} parser)`, () => {
      const text = `${configMap}---\n${BOM}${service}`;
      const loaded = loadFile('cat.yaml', text, { parser });
      assert.deepEqual(loaded.problems, []);
      assert.deepEqual(loaded.objects.map((o) => [o.kind, o.apiVersion, o.name]), [['ConfigMap', 'v1', 'a'], ['Service', 'v1', 'b']]);
      const svc = loaded.objects[1];
      assert.equal(text.slice(svc.span.start, svc.span.end), 'b');
      assert.equal(svc.extent.start, text.indexOf(`${BOM}apiVersion`) + 1);
    });
  }

  it('after a CRLF separator line and after `--- # comment`', () => {
    for (const separator of ['---\r\n', '--- # next file\n']) {
      const text = `${configMap}${separator}${BOM}${service}`;
      const loaded = loadFile('cat.yaml', text);
      assert.deepEqual([loaded.problems.length, loaded.objects[1]?.apiVersion], [0, 'v1'], JSON.stringify(separator));
    }
  });

  it('reports on the right line and column (the BOM counts as a character of its line, as editors show it)', () => {
    const text = `${configMap}---\n${BOM}${service}`;
    const findings = lint({ 'cat.yaml': text }).findings;
    assert.deepEqual(findings.filter((f) => f.ruleId === 'object-invalid'), []);
    assert.deepEqual(findings.filter((f) => f.ruleId === 'nodeport-out-of-range').map((f) => [f.line, f.column, f.text]), [[14, 17, '20000']]);
  });

  it('moves the BOMs kubectl drops (the first line with content of a document), keeping every later offset', () => {
    assert.equal(withoutDocumentStartBoms(`a: 1\n---\n${BOM}b: 2\n`), 'a: 1\n--- \nb: 2\n');
    // kubectl v1.31.9 applies these: blank and comment lines between the separator (or the file start) and the BOM.
    assert.equal(withoutDocumentStartBoms(`a: 1\n---\n\n# b\n${BOM}b: 2\n`), 'a: 1\n---\n\n# b \nb: 2\n');
    assert.equal(withoutDocumentStartBoms(`# a\r\n${BOM}a: 1\n`), '# a \r\na: 1\n');
    // Right after a separator that ends a document, kubectl drops it before a comment too (kubectl v1.31.9).
    assert.equal(withoutDocumentStartBoms(`a: 1\n---\n${BOM}# b\nb: 2\n`), 'a: 1\n--- \n# b\nb: 2\n');
    // It refuses a BOM before a comment elsewhere (after a stream's leading ---, after a blank line), and reads one
    // inside a document as text (another key).
    const untouched = [`a: ${BOM}1\n`, `---\n${BOM}# b\nb: 2\n`, `a: 1\n---\n\n${BOM}# b\nb: 2\n`, `a: 1\n---x\n${BOM}b: 2\n`, `a: 1\n--- b\n${BOM}c: 2\n`, `a: 1\n${BOM}b: 2\n`, `a: 1\n# c\n${BOM}b: 2\n`];
    for (const text of untouched) assert.equal(withoutDocumentStartBoms(text), text);
    const twice = `${configMap}---\n${BOM}${service}---\r\n${BOM}${configMap}`;
    const moved = withoutDocumentStartBoms(twice);
    assert.equal(moved.length, twice.length);
    assert.equal(moved.indexOf('kind: Service'), twice.indexOf('kind: Service'));
    assert.equal(moved.lastIndexOf('kind: ConfigMap'), twice.lastIndexOf('kind: ConfigMap'));
  });

  it('in the editor: an edit of such a file, or one that adds the BOM, reads as the whole file does', () => {
    const before = `${configMap}---\n${service}`;
    const file = new IncrementalFile('cat.yaml', before);
    const withBom = `${configMap}---\n${BOM}${service}`;
    for (const text of [withBom, withBom.replace('name: b', 'name: c')]) {
      const update = file.update(text);
      const whole = loadFile('cat.yaml', text);
      assert.deepEqual(update.loaded.objects.map((o) => [o.apiVersion, o.name, o.span]), whole.objects.map((o) => [o.apiVersion, o.name, o.span]));
      assert.deepEqual(update.loaded.problems, []);
    }
  });
});
