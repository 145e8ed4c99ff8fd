import { strict as assert } from 'node:assert';
import { stringNumber, unstringHint, unstringSpan } from '../../server/out/core/source/string-number';

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
});
