import { strict as assert } from 'node:assert';
import { disableDirectiveRules } from '../../server/out/core/load/suppressions';
import { closestId } from '../../server/out/core/rules/disable-comment-unknown-rule';
import { ruleIds } from '../../server/out/core/rules/index';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['disable-comment-unknown-rule', 'nodeport-out-of-range'];

const service = `
  apiVersion: v1
  kind: Service
  metadata:
    name: a
    namespace: web
    annotations:
      kube-netlint.io/ignore: "nodeport-duplicat, hostport-usage"
  spec:
    type: NodePort
    ports:
      - name: http
        port: 80
        # kube-netlint-disable-next-line nodeport-out-of-rnage, service-spec-invalid -- legacy port
        nodePort: 80
      # kube-netlint-disable-next-line totally-unrelated-thing
      - name: metrics
        port: 81
        nodePort: 30081`;

describe('disable-comment-unknown-rule', () => {
  it('reports each unknown id on the id itself, with the closest rule id and a fix that writes it', () => {
    const { findings } = lint(service, { rules });
    const unknown = findings.filter((f) => f.ruleId === 'disable-comment-unknown-rule');
    assert.deepEqual(unknown.map((f) => [f.line, f.column, f.text, f.severity]), [
      [7, 30, 'nodeport-duplicat', 'warning'],
      [13, 40, 'nodeport-out-of-rnage', 'warning'],
      [15, 38, 'totally-unrelated-thing', 'warning'],
    ]);
    assert.equal(unknown[0].message, '"nodeport-duplicat" is not a kube-netlint rule, so the kube-netlint.io/ignore annotation silences nothing for it; did you mean nodeport-duplicate?');
    assert.equal(unknown[0].object, 'Service web/a');
    assert.equal(unknown[1].message, '"nodeport-out-of-rnage" is not a kube-netlint rule, so this comment silences nothing for it; did you mean nodeport-out-of-range?');
    assert.equal(unknown[2].message, '"totally-unrelated-thing" is not a kube-netlint rule, so this comment silences nothing for it; `kube-netlint rules` lists the rule ids');
    assert.deepEqual(unknown[2].fixes, []);
    // The typo silences nothing: nodePort 80 is still reported.
    assert.deepEqual(findings.filter((f) => f.ruleId === 'nodeport-out-of-range').map((f) => [f.line, f.text]), [[14, '80']]);
  });

  it('fixes the typo in place, and the fixed comment then silences the finding', () => {
    const text = dedent(service);
    const { findings } = lint(text, { rules });
    const fix = findings.find((f) => f.text === 'nodeport-out-of-rnage')!.fixes[0];
    assert.equal(fix.title, 'Change "nodeport-out-of-rnage" to "nodeport-out-of-range"');
    const fixed = applyEdits(text, fix.edits);
    assert.equal(fixed.split('\n')[12], '      # kube-netlint-disable-next-line nodeport-out-of-range, service-spec-invalid -- legacy port');
    const again = lint(fixed, { rules }).findings;
    assert.deepEqual(again.map((f) => [f.ruleId, f.line]), [['disable-comment-unknown-rule', 7], ['disable-comment-unknown-rule', 15]]);
    const annotationFix = findings.find((f) => f.text === 'nodeport-duplicat')!.fixes[0];
    assert.equal(applyEdits(text, annotationFix.edits).split('\n')[6], '    kube-netlint.io/ignore: "nodeport-duplicate, hostport-usage"');
  });

  it('stays silent for known ids, every-rule comments, "all" / "*", the reason after " -- ", and a # inside a string', () => {
    const { findings } = lint(`
      apiVersion: v1
      kind: Service
      metadata:
        name: b
        annotations:
          kube-netlint.io/ignore: all
          note: "# kube-netlint-disable-next-line not-a-rule"
      spec:
        type: NodePort
        ports:
          # kube-netlint-disable-next-line
          - port: 80
            nodePort: 80
          # kube-netlint-disable-next-line nodeport-out-of-range -- kept for the old load balancer, see ticket 42
          - name: b
            port: 82
            nodePort: 82`, { rules: ['disable-comment-unknown-rule'] });
    assert.deepEqual(findings, []);
  });

  it('reads no rule id in the reason of an ignore annotation, and places an unknown id before it even when the reason repeats it', () => {
    const annotated = (value: string) => `
      apiVersion: v1
      kind: Service
      metadata:
        name: b
        annotations:
          kube-netlint.io/ignore: ${value}
      spec:
        type: NodePort
        ports: [{port: 80, nodePort: 30080}]`;
    assert.deepEqual(lint(annotated('"nodeport-duplicate -- shared on purpose"'), { rules }).findings, []);
    const { findings } = lint(annotated('"nodeport-duplicat -- nodeport-duplicat was misspelt"'), { rules });
    assert.deepEqual(findings.map((f) => [f.line, f.column, f.text]), [[6, 30, 'nodeport-duplicat']]);
    assert.match(findings[0].message, /^"nodeport-duplicat" is not a kube-netlint rule, so the kube-netlint\.io\/ignore annotation silences nothing for it; did you mean nodeport-duplicate\?$/);
    assert.equal(applyEdits(dedent(annotated('"nodeport-duplicat -- nodeport-duplicat was misspelt"')), findings[0].fixes[0].edits).split('\n')[5], '    kube-netlint.io/ignore: "nodeport-duplicate -- nodeport-duplicat was misspelt"');
  });

  it('reads the directive as eslint does: a reason after " --", and no longer word', () => {
    assert.deepEqual(disableDirectiveRules('# kube-netlint-disable-next-line a, b -- c d'), ['a', 'b']);
    assert.deepEqual(disableDirectiveRules('# kube-netlint-disable-next-line -- only a reason'), []);
    assert.equal(disableDirectiveRules('# kube-netlint-disable-next-lines a'), undefined);
  });

  it('reports a comment whose directive word kube-netlint does not read, with a fix only for a misspelling', () => {
    const text = dedent(`
      apiVersion: v1
      kind: Service
      metadata:
        name: c
      spec:
        type: NodePort
        # kube-netlint-disable nodeport-out-of-range
        ports:
          # kube-netlint-disable-nextline nodeport-out-of-range
          - port: 80
            nodePort: 80 # kube-netlint-disable-lin nodeport-out-of-range
          - port: 81
            nodePort: 81 # kube-netlint-disable-line nodeport-out-of-rnage
        # kube-netlint-enable
        selector: {app: c}`);
    const { findings } = lint(text, { rules });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.column, f.text]), [
      ['disable-comment-unknown-rule', 7, 5, 'kube-netlint-disable'],
      ['disable-comment-unknown-rule', 9, 7, 'kube-netlint-disable-nextline'],
      ['nodeport-out-of-range', 11, 17, '80'],
      ['disable-comment-unknown-rule', 11, 22, 'kube-netlint-disable-lin'],
      ['nodeport-out-of-range', 13, 17, '81'],
      ['disable-comment-unknown-rule', 13, 48, 'nodeport-out-of-rnage'],
      ['disable-comment-unknown-rule', 14, 5, 'kube-netlint-enable'],
    ]);
    assert.equal(findings[0].message, '"kube-netlint-disable" is not a kube-netlint directive, so this comment silences nothing; use kube-netlint-disable-next-line (the line below) or kube-netlint-disable-line (this line)');
    assert.deepEqual(findings[0].fixes, [], 'a block form is not a misspelling');
    assert.equal(findings[1].message, '"kube-netlint-disable-nextline" is not a kube-netlint directive, so this comment silences nothing; did you mean kube-netlint-disable-next-line?');
    assert.equal(findings[3].fixes[0].title, 'Change "kube-netlint-disable-lin" to "kube-netlint-disable-line"');
    const fixed = applyEdits(applyEdits(text, findings[3].fixes[0].edits), findings[1].fixes[0].edits);
    assert.deepEqual(lint(fixed, { rules }).findings.map((f) => [f.line, f.text]), [[7, 'kube-netlint-disable'], [13, '81'], [13, 'nodeport-out-of-rnage'], [14, 'kube-netlint-enable']], 'both fixed comments now silence nodePort 80');
  });

  it('reports a directive written in capitals (it silences nothing: directives are lower-case), with the lower-case fix', () => {
    const text = dedent(`
      apiVersion: v1
      kind: Service
      metadata:
        name: c
      spec:
        type: NodePort
        ports:
          # KUBE-NETLINT-DISABLE-NEXT-LINE nodeport-out-of-range
          - nodePort: 80
            port: 80 # Kube-Netlint-Disable-Line
        selector: {app: c}`);
    const { findings } = lint(text, { rules });
    assert.deepEqual(findings.map((f) => [f.ruleId, f.line, f.column, f.text]), [
      ['disable-comment-unknown-rule', 8, 7, 'KUBE-NETLINT-DISABLE-NEXT-LINE'],
      ['nodeport-out-of-range', 9, 17, '80'],
      ['disable-comment-unknown-rule', 10, 18, 'Kube-Netlint-Disable-Line'],
    ]);
    assert.equal(findings[0].message, '"KUBE-NETLINT-DISABLE-NEXT-LINE" is not a kube-netlint directive, so this comment silences nothing; did you mean kube-netlint-disable-next-line?');
    const fixed = applyEdits(text, findings[0].fixes[0].edits);
    assert.deepEqual(lint(fixed, { rules }).findings.map((f) => [f.line, f.text]), [[10, 'Kube-Netlint-Disable-Line']], 'the fixed comment silences nodePort 80');
  });

  it('suggests only ids near enough to be a typo', () => {
    assert.equal(closestId('hostport-usag', ruleIds), 'hostport-usage');
    assert.equal(closestId('yaml', ruleIds), undefined);
  });
});
