import { strict as assert } from 'node:assert';
import { nextFinding } from '../../client/out/finding-steps';

/** F8 / Shift+F8 in a rendered view: the drawn and the listed findings, in document order, wrapping. */
const at = (line: number, character: number, name: string) => ({ start: { line, character }, name });
const FINDINGS = [at(20, 16, 'web nodePort'), at(9, 16, 'api nodePort'), at(9, 4, 'api port'), at(33, 0, 'listed')];
const step = (line: number, character: number, direction: 1 | -1) => nextFinding(FINDINGS, { line, character }, direction)?.name;

describe('rendered views: F8 and Shift+F8 over decorations and diagnostics (client)', () => {
  it('goes to the first finding after the cursor, by line then character, and wraps to the first', () => {
    assert.equal(step(0, 0, 1), 'api port');
    assert.equal(step(9, 4, 1), 'api nodePort');
    assert.equal(step(9, 10, 1), 'api nodePort');
    assert.equal(step(9, 16, 1), 'web nodePort');
    assert.equal(step(20, 16, 1), 'listed');
    assert.equal(step(33, 0, 1), 'api port');
    assert.equal(step(40, 0, 1), 'api port');
  });

  it('goes backwards with Shift+F8 and wraps to the last', () => {
    assert.equal(step(20, 16, -1), 'api nodePort');
    assert.equal(step(9, 16, -1), 'api port');
    assert.equal(step(9, 4, -1), 'listed');
    assert.equal(step(0, 0, -1), 'listed');
    assert.equal(step(50, 0, -1), 'listed');
  });

  it('stays on the only finding, counts two at the same place once, and has nothing to visit in a clean view', () => {
    assert.equal(nextFinding([at(5, 2, 'only')], { line: 5, character: 2 }, 1)?.name, 'only');
    assert.equal(nextFinding([at(5, 2, 'only')], { line: 5, character: 2 }, -1)?.name, 'only');
    const twins = [at(5, 2, 'drawn'), at(5, 2, 'listed twin'), at(7, 0, 'later')];
    assert.equal(nextFinding(twins, { line: 0, character: 0 }, 1)?.name, 'drawn');
    assert.equal(nextFinding(twins, { line: 5, character: 2 }, 1)?.name, 'later');
    assert.equal(nextFinding(twins, { line: 7, character: 0 }, -1)?.name, 'drawn');
    assert.equal(nextFinding([], { line: 0, character: 0 }, 1), undefined);
  });
});
