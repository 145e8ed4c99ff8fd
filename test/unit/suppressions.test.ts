import { strict as assert } from 'node:assert';
import { ignoreListIds } from '../../server/out/core/engine/run-rules';
import { loadFile } from '../../server/out/core/load/load-file';
import { lint } from '../helpers/lint';

const rules = ['nodeport-duplicate', 'nodeport-out-of-range'];
/** A NodePort Service; `meta` and `before` are extra lines put in metadata and right above `nodePort`. */
const svc = (name: string, nodePort: number, meta = '', before = '') => `
apiVersion: v1
kind: Service
metadata:
  name: ${name}
${meta}spec:
  type: NodePort
  ports:
    - name: http
      port: 80
${before}      nodePort: ${nodePort}
`;
const found = (text: string) => lint(text, { rules }).findings.map((f) => `${f.ruleId}@${f.line} ${f.object}`);

describe('suppressions', () => {
  describe('annotation kube-netlint.io/ignore', () => {
    it('silences the listed rules for that object only; the other side of a collision still reports', () => {
      const text = svc('a', 30080, '  annotations:\n    kube-netlint.io/ignore: "nodeport-duplicate, some-other-rule"\n') + '---' + svc('b', 30080);
      assert.deepEqual(found(text), ['nodeport-duplicate@23 Service default/b']);
    });

    it('does not silence rules it does not list', () => {
      const text = svc('a', 80, '  annotations:\n    kube-netlint.io/ignore: nodeport-duplicate\n');
      assert.deepEqual(found(text), ['nodeport-out-of-range@12 Service default/a']);
    });

    it('reads a " -- reason" as the disable comment does: the ids before it silence, the reason names no rule', () => {
      const text = svc('a', 80, '  annotations:\n    kube-netlint.io/ignore: "nodeport-out-of-range -- shared on purpose, see nodeport-duplicate"\n') + '---' + svc('b', 80);
      assert.deepEqual(found(text), ['nodeport-out-of-range@23 Service default/b']);
      // A word of the reason is no id: nodeport-duplicate is not silenced for a by its mention after " -- ".
      const dup = svc('a', 30080, '  annotations:\n    kube-netlint.io/ignore: "hostport-usage -- not nodeport-duplicate"\n') + '---' + svc('b', 30080);
      assert.deepEqual(found(dup), ['nodeport-duplicate@12 Service default/a', 'nodeport-duplicate@23 Service default/b']);
      // "--" inside a word (or glued to an id) is no reason mark; a value that is only a reason silences nothing.
      assert.deepEqual(ignoreListIds('a,b -- c d'), ['a', 'b']);
      assert.deepEqual(ignoreListIds('a --b, c--'), ['a', '--b', 'c--']);
      assert.deepEqual(ignoreListIds('-- only a reason'), []);
      assert.deepEqual(ignoreListIds(' nodeport-duplicate ,  hostport-usage'), ['nodeport-duplicate', 'hostport-usage']);
    });

    it('accepts "*" and "all" for every rule', () => {
      for (const all of ['"*"', 'all']) {
        assert.deepEqual(found(svc('a', 80, `  annotations:\n    kube-netlint.io/ignore: ${all}\n`)), [], all);
      }
    });
  });

  describe('comment # kube-netlint-disable-next-line', () => {
    it('silences the named rule on the next line only', () => {
      const text = svc('a', 80, '', '      # kube-netlint-disable-next-line nodeport-out-of-range\n') + '---' + svc('b', 81);
      assert.deepEqual(found(text), ['nodeport-out-of-range@22 Service default/b']);
    });

    it('silences every rule without ids, and several rules separated by commas or spaces', () => {
      assert.deepEqual(found(svc('a', 80, '', '      # kube-netlint-disable-next-line\n')), []);
      assert.deepEqual(found(svc('a', 80, '', '      # kube-netlint-disable-next-line nodeport-duplicate,nodeport-out-of-range\n')), []);
      assert.deepEqual(found(svc('a', 80, '', '      # kube-netlint-disable-next-line nodeport-duplicate\n')), ['nodeport-out-of-range@11 Service default/a']);
    });

    it('does not count text inside a block scalar or a quoted string as a comment', () => {
      // The directive text sits on the line right above the nodePort, inside a block scalar / a quoted string.
      assert.deepEqual(found(svc('a', 80, '', '      x-note: |\n        # kube-netlint-disable-next-line\n')), ['nodeport-out-of-range@12 Service default/a']);
      assert.deepEqual(found(svc('a', 80, '', '      x-note: "# kube-netlint-disable-next-line"\n')), ['nodeport-out-of-range@11 Service default/a']);
      assert.deepEqual(found(svc('a', 80, '', "      x-note: '\n        # kube-netlint-disable-next-line'\n")), ['nodeport-out-of-range@12 Service default/a']);
      const f = loadFile('s.yaml', 'a: |\n  # kube-netlint-disable-next-line\nb: 1\n# kube-netlint-disable-next-line r1 r2\nc: 2\n');
      assert.deepEqual([...f.suppressions.entries()].map(([line, ids]) => [line, [...ids]]), [[5, ['r1', 'r2']]]);
    });

    it('# kube-netlint-disable-line after a value silences that line only, with the same ids and reason as next-line', () => {
      const text = svc('a', 80, '', '') .replace('nodePort: 80', 'nodePort: 80  # kube-netlint-disable-line nodeport-out-of-range -- legacy') + '---' + svc('b', 81);
      assert.deepEqual(found(text), ['nodeport-out-of-range@21 Service default/b']);
      assert.deepEqual(found(svc('a', 80).replace('nodePort: 80', 'nodePort: 80 # kube-netlint-disable-line')), [], 'no id: every rule, as in eslint');
      assert.deepEqual(found(svc('a', 80).replace('port: 80', 'port: 80 # kube-netlint-disable-line nodeport-out-of-range')), ['nodeport-out-of-range@10 Service default/a'], 'the line above is not silenced');
      const f = loadFile('s.yaml', 'a: 1 # kube-netlint-disable-line r1\n# kube-netlint-disable r2\nb: 2\n# kube-netlint-disable-next-line r3\nc: 3\n');
      assert.deepEqual([...f.suppressions.entries()].map(([line, ids]) => [line, [...ids]]), [[1, ['r1']], [2, []], [5, ['r3']]], 'an unknown directive word silences nothing: its own line maps to no rule id');
    });

    it('applies to the line right after the comment, not further down', () => {
      const text = svc('a', 80, '', '      # kube-netlint-disable-next-line nodeport-out-of-range\n      targetPort: 8080\n');
      assert.deepEqual(found(text), ['nodeport-out-of-range@12 Service default/a']);
    });
  });

  describe('config rules', () => {
    it('turns a rule off or changes its severity', () => {
      const text = svc('a', 80);
      assert.deepEqual(lint(text, { rules, config: { rules: { 'nodeport-out-of-range': 'off' } } }).findings, []);
      assert.deepEqual(lint(text, { rules, config: { rules: { 'nodeport-out-of-range': 'warning' } } }).findings.map((f) => f.severity), ['warning']);
    });
  });
});
