import { strict as assert } from 'node:assert';
import { fileTextOf, sourceOf, sourceSpanNow, RenderSourceMap } from '../../server/out/core/render/source-map';
import { remapRenderedFinding } from '../../server/out/core/render/apply';
import type { LoadedFile } from '../../server/out/core/load/load-file';
import type { Finding } from '../../server/out/core/rules/rule';
import { embeddedText } from '../../server/out/core/render/embedded';
import { parseDocument } from 'yaml';

describe('render source maps', () => {
  const map: RenderSourceMap = {
    nodes: [
      { start: 0, end: 100, source: { file: 'a.yaml', start: 0, end: 50 }, via: 'literal' },
      { start: 10, end: 40, source: { file: 'a.yaml', start: 5, end: 20 }, via: 'literal' },
      { start: 20, end: 25, source: { file: 'p.yaml', start: 7, end: 12 }, via: 'patch' },
      { start: 50, end: 60, source: { file: 'a.yaml', start: 30, end: 35 }, via: 'literal' },
    ],
    documents: [{ start: 0, end: 120, fallback: { file: 'a.yaml', start: 0, end: 10 } }],
  };
  it('finds the innermost mapped node that holds a rendered span, else the document fallback', () => {
    assert.deepEqual(sourceOf(map, 21, 24), { span: { file: 'p.yaml', start: 7, end: 12 }, via: 'patch' });
    assert.deepEqual(sourceOf(map, 30, 35)?.span, { file: 'a.yaml', start: 5, end: 20 });
    assert.deepEqual(sourceOf(map, 45, 47)?.span, { file: 'a.yaml', start: 0, end: 50 });
    assert.deepEqual(sourceOf(map, 110, 111), { span: { file: 'a.yaml', start: 0, end: 10 }, via: 'document' });
    assert.equal(sourceOf(map, 130, 131), undefined);
  });
  it('moves source spans with edits made since the render (before, after and inside the edited region)', () => {
    const then = 'aaaa\nnodePort: 30080\nbbbb\n';
    const now = 'aaaa\n# added\nnodePort: 30080\nbbbb\n';
    const at = then.indexOf('30080');
    assert.deepEqual(sourceSpanNow({ file: 'f', start: at, end: at + 5 }, then, now), { file: 'f', start: now.indexOf('30080'), end: now.indexOf('30080') + 5 });
    assert.deepEqual(sourceSpanNow({ file: 'f', start: 1, end: 3 }, then, now), { file: 'f', start: 1, end: 3 });
    const changed = then.replace('30080', '30099');
    assert.deepEqual(sourceSpanNow({ file: 'f', start: at, end: at + 5 }, then, changed), { file: 'f', start: at, end: at + 5 });
  });
  it('maps offsets of an inline (literal block) patch back into its kustomization', () => {
    const text = 'patches:\n  - patch: |-\n      apiVersion: v1\n      kind: Service\n      spec:\n        ports:\n          - nodePort: 30090\n';
    const doc = parseDocument(text);
    const node = (doc.getIn(['patches', 0, 'patch'], true)) as unknown;
    const e = embeddedText(node, text)!;
    const inner = e.text.indexOf('30090');
    assert.equal(text.slice(e.toFileOffset(inner), e.toFileOffset(inner) + 5), '30090');
  });
  it('keeps a value fix on a values line the template writes, and drops one that only quotes or unquotes it there', () => {
    const values = 'port: "8080"\nhp: 30101\n';
    const rendered = 'containerPort: "8080"\nhostPort: 30101\n';
    const writtenBy = { template: 'templates/deployment.yaml', quoting: '| quote' };
    const render = {
      jobId: 'web', label: 'Helm release web', sourceTexts: new Map([['values.yaml', values]]),
      map: {
        nodes: [
          { start: 15, end: 21, source: { file: 'values.yaml', start: 6, end: 12 }, via: 'values' as const, writtenBy },
          { start: 32, end: 37, source: { file: 'values.yaml', start: 17, end: 22 }, via: 'values' as const, writtenBy: { template: 'templates/deployment.yaml' } },
        ],
        documents: [{ start: 0, end: rendered.length, fallback: { file: 'templates/deployment.yaml', start: 0, end: 10 } }],
      },
    };
    const files = new Map<string, LoadedFile>([
      ['render:web', { file: 'render:web', text: rendered, objects: [], problems: [], render } as unknown as LoadedFile],
      ['values.yaml', { file: 'values.yaml', text: values, objects: [], problems: [] } as unknown as LoadedFile],
    ]);
    assert.deepEqual(fileTextOf(files).templateWriting?.({ file: 'render:web', start: 15, end: 21 }), writtenBy);
    assert.equal(fileTextOf(files).templateWriting?.({ file: 'values.yaml', start: 6, end: 12 }), undefined);
    const finding = (start: number, end: number, newText: string): Finding => ({
      ruleId: 'r', severity: 'error', message: 'm', span: { file: 'render:web', start, end }, related: [],
      fixes: [{ title: 'fix', edits: [{ span: { file: 'render:web', start, end }, newText }] }],
    });
    assert.deepEqual(remapRenderedFinding(finding(15, 21, '8080'), files, () => false)?.fixes, []);
    assert.deepEqual(remapRenderedFinding(finding(32, 37, '30102'), files, () => false)?.fixes, [{ title: 'fix', edits: [{ span: { file: 'values.yaml', start: 17, end: 22 }, newText: '30102' }] }]);
    assert.deepEqual(remapRenderedFinding(finding(32, 37, '"30101"'), files, () => false)?.fixes, []);
  });
});
