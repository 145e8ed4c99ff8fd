import { strict as assert } from 'node:assert';
import { DiagnosticLike, ViewCopies } from '../../client/out/view-copies';

/** The client keeps a rendered view's copy of a source-line finding out of Problems, and nothing else. */
const VIEW = 'kube-netlint-rendered:/kustomize%3Aprod.yaml';
const SOURCE = 'file:///ws/prod/np.yaml';
const at = (line: number, from: number, to: number) => ({ start: { line, character: from }, end: { line, character: to } });
const MESSAGE = 'nodePort 30090 is also claimed by Service default/api: … (Service default/web, rendered by prod)';
const inView = (line: number, message = MESSAGE, code: DiagnosticLike['code'] = { value: 'nodeport-duplicate' }): DiagnosticLike => ({ range: at(line, 16, 21), message, code });
const onSource = (viewLine: number, message = MESSAGE): DiagnosticLike => ({
  range: at(8, 16, 21), message, code: { value: 'nodeport-duplicate' },
  relatedInformation: [
    { location: { uri: 'file:///ws/prod/api.yaml', range: at(10, 16, 21) }, message: 'nodePort 30090 of Service default/api' },
    { location: { uri: VIEW, range: at(viewLine, 16, 21) }, message: 'in the rendered manifest (rendered by prod)' },
  ],
});
const copies = () => new ViewCopies<DiagnosticLike>((uri) => uri.startsWith('kube-netlint-rendered:'));

describe('rendered views: which findings are copies of a source-line finding (client)', () => {
  it('draws the copy a source diagnostic links to (same range, code and message), whichever arrives first', () => {
    for (const order of ['source first', 'view first']) {
      const c = copies();
      const copy = inView(21);
      if (order === 'source first') {
        assert.deepEqual(c.update(SOURCE, [onSource(21)]), [VIEW]);
        assert.deepEqual(c.update(VIEW, [copy]), [VIEW]);
      } else {
        c.update(VIEW, [copy]);
        assert.deepEqual(c.update(SOURCE, [onSource(21)]), [VIEW]);
      }
      assert.deepEqual(c.split(VIEW), { listed: [], drawn: [copy] }, order);
    }
  });

  it('keeps a view finding no source diagnostic links to listed (a rendered field without a source line)', () => {
    const c = copies();
    const unmapped = inView(3, 'containerPort 8080 is declared twice');
    const copy = inView(21);
    c.update(SOURCE, [onSource(21)]);
    c.update(VIEW, [unmapped, copy]);
    assert.deepEqual(c.split(VIEW), { listed: [unmapped], drawn: [copy] });
  });

  it('needs the exact range, code and message: a link to another line, rule or message leaves the finding listed', () => {
    const c = copies();
    c.update(SOURCE, [onSource(9)]);
    const others = [inView(21), inView(9, MESSAGE, 'nodeport-in-range'), inView(9, `${MESSAGE}.`)];
    c.update(VIEW, others);
    assert.deepEqual(c.split(VIEW), { listed: others, drawn: [] });
  });

  it('lists the view finding again once the source diagnostic is gone, and draws it once it links again', () => {
    const c = copies();
    const copy = inView(21);
    c.update(VIEW, [copy]);
    c.update(SOURCE, [onSource(21)]);
    assert.deepEqual(c.update(SOURCE, []), [VIEW]);
    assert.deepEqual(c.split(VIEW), { listed: [copy], drawn: [] });
    c.update(SOURCE, [onSource(21)]);
    assert.deepEqual(c.split(VIEW).drawn, [copy]);
  });

  it('counts links: two source diagnostics on one copy, one cleared, still a copy; both cleared, listed', () => {
    const c = copies();
    const copy = inView(21);
    c.update(VIEW, [copy]);
    c.update(SOURCE, [onSource(21)]);
    c.update('file:///ws/values.yaml', [onSource(21)]);
    c.update(SOURCE, []);
    assert.deepEqual(c.split(VIEW).drawn, [copy]);
    c.update('file:///ws/values.yaml', []);
    assert.deepEqual(c.split(VIEW).listed, [copy]);
  });

  it('a source diagnostic without links to a view affects no view; an emptied view has nothing left; clear forgets all', () => {
    const c = copies();
    assert.deepEqual(c.update('file:///ws/a.yaml', [{ range: at(1, 0, 4), message: 'x', code: 'r' }]), []);
    c.update(VIEW, [inView(21)]);
    c.update(VIEW, []);
    assert.deepEqual(c.split(VIEW), { listed: [], drawn: [] });
    c.update(VIEW, [inView(21)]);
    c.clear();
    assert.deepEqual(c.split(VIEW), { listed: [], drawn: [] });
  });
});
