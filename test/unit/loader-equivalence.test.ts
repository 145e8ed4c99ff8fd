import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlias, isMap, isSeq, Node, parseAllDocuments } from 'yaml';
import { loadFile, PARSE_OPTIONS } from '../../server/out/core/load/load-file';
import { sharedDir } from '../helpers/shared';

/** Every YAML file of the repository's examples and fixtures and of the shared cases and corpora. */
function corpusFiles(): string[] {
  const repo = join(__dirname, '..', '..');
  const shared = sharedDir();
  const roots = [join(repo, 'examples'), join(repo, 'test', 'fixtures'), ...(shared ? [join(shared, 'cases'), join(shared, 'corpus')] : [])];
  return roots.flatMap((root) => {
    try {
      return readdirSync(root, { recursive: true }).map(String).filter((f) => /\.ya?ml$/.test(f)).map((f) => join(root, f));
    } catch {
      return [];
    }
  });
}

// The loader resolves aliases through its own index and computes `raw` itself (linear time); what it reads
// must be what yaml's own resolution and toJS give, on every real file we have.
describe('loader: aliases and raw equal yaml\'s own resolution on every corpus', () => {
  it('raw of every object equals yaml toJS of its node', () => {
    const files = corpusFiles();
    assert.ok(files.length > 50, `only ${files.length} files`);
    let compared = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const loaded = loadFile(file, text);
      if (loaded.template) continue;
      const docs = parseAllDocuments(text, PARSE_OPTIONS);
      for (const obj of loaded.objects) {
        const m = /#(\d+)(?:\/(\d+))?$/.exec(obj.uid)!;
        const doc = docs[Number(m[1])];
        let node = doc.contents as unknown;
        if (m[2] !== undefined && isMap(node)) {
          const items = node.get('items', true);
          node = isSeq(items) ? items.items[Number(m[2])] : undefined;
        }
        while (isAlias(node)) node = node.resolve(doc);
        assert.deepEqual(obj.raw, (node as Node).toJS(doc, { maxAliasCount: 100 }), `${obj.uid}`);
        compared++;
      }
    }
    assert.ok(compared > 500, `only ${compared} objects`);
  });
});
