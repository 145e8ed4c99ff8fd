import { strict as assert } from 'node:assert';
import type { Diagnostic } from 'vscode-languageserver';
import { loadFile, LoadedFile } from '../../server/out/core/load/load-file';
import type { Finding } from '../../server/out/core/rules/rule';
import { DiagnosticPublisher } from '../../server/out/lsp/diagnostics';

// The publisher sends a file's diagnostics only when they would differ from those sent: the same findings on the
// same loaded files are skipped without rebuilding them, and anything that moves a diagnostic sends it again.

describe('DiagnosticPublisher', () => {
  const svc = (name: string, nodePort: number): string => `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\nspec:\n  type: NodePort\n  ports:\n    - port: 80\n      nodePort: ${nodePort}\n`;
  const at = (text: string, needle: string, file: string): Finding['span'] => ({ file, start: text.indexOf(needle), end: text.indexOf(needle) + needle.length });

  function setup() {
    const sent: { uri: string; diagnostics: Diagnostic[] }[] = [];
    const files = new Map<string, LoadedFile>();
    const set = (file: string, text: string): LoadedFile => {
      const f = loadFile(file, text);
      files.set(file, f);
      return f;
    };
    const publisher = new DiagnosticPublisher((uri, diagnostics) => sent.push({ uri, diagnostics }));
    const lookup = { loadedFile: (f: string) => files.get(f), uriOf: (f: string) => `file:///${f}` };
    return { sent, set, publisher, lookup, files };
  }

  it('sends nothing for the same findings on the same files, and again when a related file or the file itself changed', () => {
    const { sent, set, publisher, lookup } = setup();
    const a = svc('a', 30080);
    const b = svc('b', 30080);
    set('a.yaml', a);
    set('b.yaml', b);
    const finding: Finding = {
      ruleId: 'nodeport-duplicate', severity: 'error', message: 'nodePort 30080 is also used by Service b', span: at(a, '30080', 'a.yaml'),
      related: [{ span: at(b, '30080', 'b.yaml'), message: 'Service b' }], fixes: [],
    };
    const byFile = new Map([['a.yaml', [finding]]]);
    publisher.publish(['a.yaml', 'b.yaml'], byFile, lookup);
    assert.deepEqual(sent.map((s) => s.uri), ['file:///a.yaml']);
    assert.equal(sent[0].diagnostics[0].relatedInformation![0].location.range.start.line, 8);

    publisher.publish(['a.yaml', 'b.yaml'], new Map([['a.yaml', [finding]]]), lookup);
    assert.equal(sent.length, 1, 'unchanged: not sent again');

    // A line inserted at the top of b.yaml: the kept finding's related span is moved in place (as the incremental
    // analysis moves kept findings) and b.yaml is a new LoadedFile: a.yaml's related location moves a line down.
    const moved = `# top\n${b}`;
    set('b.yaml', moved);
    (finding.related[0] as { span: Finding['span'] }).span = at(moved, '30080', 'b.yaml');
    publisher.publish(['a.yaml', 'b.yaml'], byFile, lookup);
    assert.equal(sent.length, 2);
    assert.equal(sent[1].diagnostics[0].relatedInformation![0].location.range.start.line, 9);

    // The same finding objects on a new LoadedFile of a.yaml (its text may have moved them): sent again.
    set('a.yaml', a);
    publisher.publish(['a.yaml', 'b.yaml'], byFile, lookup);
    assert.equal(sent.length, 3);

    // No finding left: a.yaml's list is sent empty.
    publisher.publish(['a.yaml', 'b.yaml'], new Map(), lookup);
    assert.deepEqual(sent.slice(3).map((s) => [s.uri, s.diagnostics.length]), [['file:///a.yaml', 0]]);
  });

  it('keeps the findings it has for code actions when it skips a file', () => {
    const { set, publisher, lookup } = setup();
    const a = svc('a', 30080);
    set('a.yaml', a);
    const finding: Finding = { ruleId: 'nodeport-duplicate', severity: 'error', message: 'm', span: at(a, '30080', 'a.yaml'), related: [], fixes: [] };
    publisher.publish(['a.yaml'], new Map([['a.yaml', [finding]]]), lookup);
    publisher.publish(['a.yaml'], new Map([['a.yaml', [finding]]]), lookup);
    assert.deepEqual(publisher.findingsAt('a.yaml', finding.span.start, a), [finding]);
  });
});
