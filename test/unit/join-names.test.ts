import { strict as assert } from 'node:assert';
import { joinNames, MESSAGE_LIST_MAX } from '../../server/out/core/rules/report/collisions';

describe('joinNames (message lists)', () => {
  it('joins one, two and up to five names with commas and "and"', () => {
    assert.equal(joinNames([]), '');
    assert.equal(joinNames(['a']), 'a');
    assert.equal(joinNames(['a', 'b']), 'a and b');
    assert.equal(joinNames(['a', 'b', 'c', 'd', 'e']), 'a, b, c, d and e');
  });

  it('caps the list at five names and counts the rest', () => {
    assert.equal(MESSAGE_LIST_MAX, 5);
    assert.equal(joinNames(['a', 'b', 'c', 'd', 'e', 'f']), 'a, b, c, d, e and 1 more');
    const many = Array.from({ length: 59 }, (_, i) => `Service ns/s${i}`);
    const text = joinNames(many);
    assert.equal(text, 'Service ns/s0, Service ns/s1, Service ns/s2, Service ns/s3, Service ns/s4 and 54 more');
    assert.ok(text.length < 100);
  });
});
