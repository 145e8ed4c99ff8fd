import { strict as assert } from 'node:assert';
import { stringNumber, stringNumberAt, unstringHint, unstringSpan } from '../../server/out/core/source/string-number';
import { quoteAdvice, stringAdvice, writingAt } from '../../server/out/core/kubernetes/api-server/string-advice';

/** The reading of the value `value` written last in `text` (its span as the loader gives it: without the tag). */
const at = (text: string, value: string) => {
  const start = text.lastIndexOf(value);
  const span = { file: 'f.yaml', start, end: start + value.length };
  const written = stringNumber(text, span);
  return { written, hint: unstringHint(written), fixed: text.slice(0, unstringSpan(written, span).start) };
};

describe('stringNumber: how a number YAML reads as a string is written', () => {
  it('tells quotes from a !!str tag, and both', () => {
    assert.deepEqual(at('nodePort: "30556"\n', '"30556"'), { written: { quoted: true, start: 10 }, hint: 'remove the quotes', fixed: 'nodePort: ' });
    assert.deepEqual(at("nodePort: '30556'\n", "'30556'").hint, 'remove the quotes');
    assert.deepEqual(at('nodePort: !!str 30556\n', '30556'), { written: { quoted: false, start: 10, tag: '!!str' }, hint: 'remove the `!!str` tag', fixed: 'nodePort: ' });
    assert.deepEqual(at('nodePort: !!str "30556"\n', '"30556"').hint, 'remove the `!!str` tag and the quotes');
    assert.deepEqual(at('nodePort: !<tag:yaml.org,2002:str> 30556\n', '30556').hint, 'remove the `!<tag:yaml.org,2002:str>` tag');
  });

  it('reads tags in flow collections and after a sequence dash, and sees anchors', () => {
    assert.deepEqual(at('  - {port: 80, nodePort: !!str 30556}\n', '30556').fixed, '  - {port: 80, nodePort: ');
    assert.deepEqual(at('ports:\n  - !!str 8080\n', '8080').fixed, 'ports:\n  - ');
    assert.deepEqual(at('x: &a !!str 8080\n', '8080').written, { quoted: false, start: 6, tag: '!!str', anchored: true });
    assert.deepEqual(at('x: !!str &a 8080\n', '8080').written, { quoted: false, start: 3, tag: '!!str', anchored: true });
  });

  it('stays silent on what is not a tag: a ! inside a key, a plain value, unknown text', () => {
    assert.deepEqual(at('a!b: "80"\n', '"80"').written, { quoted: true, start: 5 });
    assert.deepEqual(at('port: 80\n', '80'), { written: { quoted: false, start: 6 }, hint: 'write it as a plain number', fixed: 'port: ' });
    assert.equal(stringNumber(undefined, { file: 'f', start: 0, end: 1 }), undefined);
    assert.equal(unstringHint(undefined), 'write it as a plain number');
  });

  it('tells to change the chart template that writes a rendered value, whatever the values file writes', () => {
    const text = 'containerPort: "8080"\n';
    const span = { file: 'render:web', start: 15, end: 21 };
    const from = (template?: { template: string; quoting?: string }) => Object.assign(() => text, { templateWriting: () => template });
    assert.equal(unstringHint(stringNumberAt(from({ template: 'templates/deployment.yaml', quoting: '| quote' }), span)), 'remove `| quote` in templates/deployment.yaml');
    assert.equal(unstringHint(stringNumberAt(from({ template: 't.yaml', quoting: '"{{ }}"' }), span)), 'unquote {{ }} in t.yaml');
    assert.equal(unstringHint(stringNumberAt(from({ template: 't.yaml', quoting: 'quote' }), span)), 'remove `quote` in t.yaml');
    assert.equal(unstringHint(stringNumberAt(from({ template: 't.yaml' }), span)), 'unquote it in t.yaml');
    assert.equal(unstringHint(stringNumberAt(from(), span)), 'remove the quotes');
    // A number where a string belongs: quoting the values file would not reach the render.
    const label = 'version: 80\n';
    const at = { file: 'render:web', start: 9, end: 11 };
    const labelled = Object.assign(() => label, { templateWriting: () => ({ template: 'templates/cm.yaml' }) });
    const advice = '; quote it in templates/cm.yaml (`| quote`)';
    assert.equal(quoteAdvice(labelled, at), advice);
    assert.deepEqual(stringAdvice('number', 80, writingAt(labelled, at)), { read: ' (YAML 1.1 reads the unquoted value as the number 80)', fix: advice });
    assert.equal(quoteAdvice(() => label, at), '; quote it');
  });
});
