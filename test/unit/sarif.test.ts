import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log } from 'sarif';
import { FINGERPRINT_KEY, formatSarif } from '../../server/out/cli/format-sarif';
import { runCli } from '../../server/out/cli/run';
import { markdownToText } from '../../server/out/core/output/markdown-text';
import { allRules } from '../../server/out/core/rules/index';
import { schemaErrors, sarifValidator } from '../helpers/json-schema';
import { deadLinkReason, markdownLinks } from '../helpers/links';

const svc = (name: string, nodePort: number, ns = 'default') =>
  `apiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n  type: NodePort\n  ports:\n    - {port: 80, nodePort: ${nodePort}}\n`;

describe('SARIF output', () => {
  let dir: string;
  const write = (rel: string, text: string): void => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  const sarif = async (argv: string[], stdin = ''): Promise<Log> => {
    let out = '';
    await runCli(['--format', 'sarif', ...argv], { cwd: dir, stdout: (t) => (out += t), stderr: () => undefined, readStdin: () => stdin });
    return JSON.parse(out) as Log;
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'knl-sarif-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('validates against the SARIF 2.1.0 schema: collisions with related locations, spaces in paths, stdin, YAML errors', async () => {
    write('team a/a.yaml', svc('a', 30080, 'team-a'));
    write('b.yaml', svc('b', 30080, 'team-b') + '---\n' + svc('c', 5678));
    write('broken.yaml', 'kind: Service\nmetadata: {name: x\n');
    const log = await sarif(['.']);
    assert.deepEqual(schemaErrors(sarifValidator(), log), []);
    assert.ok(log.runs[0].results!.length >= 4);
    assert.ok(log.runs[0].results!.some((r) => r.relatedLocations?.length));
    const stdin = await sarif(['-'], svc('x', 30081) + '---\n' + svc('z', 30081));
    assert.deepEqual(schemaErrors(sarifValidator(), stdin), []);
  });

  it('carries quick fixes as fixes with replacements (1-based regions, a deletion without insertedContent), valid against the schema', async () => {
    const lb = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: lb\nspec:\n  type: LoadBalancer\n  externalTrafficPolicy: Local\n  healthCheckNodePort: 31990\n  selector: {app: lb}\n  ports:\n    - {port: 80}\n';
    const web = '---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: lb\nspec:\n  selector: {matchLabels: {app: lb}}\n  template:\n    metadata: {labels: {app: lb}}\n    spec: {containers: [{name: c}]}\n';
    write('lb.yaml', lb + web);
    const proto = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: p\nspec:\n  ports:\n    - {port: 80, protocol: tcp}\n';
    write('proto.yaml', proto);
    write('dup.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: dup\nspec:\n  ports:\n    - {name: http, port: 80}\n    - {name: http, port: 81}\n');
    const log = await sarif(['lb.yaml', 'dup.yaml', 'proto.yaml']);
    assert.deepEqual(schemaErrors(sarifValidator(), log), []);
    const results = log.runs[0].results!;
    assert.deepEqual(results.map((r) => [r.ruleId, r.locations![0].physicalLocation!.artifactLocation!.uri, r.locations![0].physicalLocation!.region!.startLine, r.fixes?.length]), [
      ['service-spec-invalid', 'dup.yaml', 8, undefined],
      ['externaltrafficpolicy-local-coverage', 'lb.yaml', 7, 1],
      ['externaltrafficpolicy-local-healthcheck', 'lb.yaml', 7, undefined],
      ['service-spec-invalid', 'proto.yaml', 7, 1],
    ]);
    const lbFile = { uri: 'lb.yaml', uriBaseId: '%SRCROOT%' };
    assert.deepEqual(results[1].fixes, [{
      description: { text: 'Set externalTrafficPolicy to Cluster and remove healthCheckNodePort 31990 (every node forwards; backends lose the client source IP to SNAT)' },
      artifactChanges: [{
        artifactLocation: lbFile,
        replacements: [
          { deletedRegion: { startLine: 7, startColumn: 26, endLine: 7, endColumn: 31 }, insertedContent: { text: 'Cluster' } },
          { deletedRegion: { startLine: 7, startColumn: 31, endLine: 8, endColumn: 29 } },
        ],
      }],
    }]);
    assert.deepEqual(results[3].fixes, [{
      description: { text: 'Change protocol "tcp" to "TCP"' },
      artifactChanges: [{ artifactLocation: { uri: 'proto.yaml', uriBaseId: '%SRCROOT%' }, replacements: [{ deletedRegion: { startLine: 7, startColumn: 28, endLine: 7, endColumn: 31 }, insertedContent: { text: 'TCP' } }] }],
    }]);
    // Applied as SARIF says (each region of the unmodified file, in order), the fixes write what the editor's do.
    const apply = (text: string, replacements: readonly { deletedRegion?: { startLine?: number; startColumn?: number; endLine?: number; endColumn?: number }; insertedContent?: { text?: string } }[]): string => {
      const starts = [0, ...[...text.matchAll(/\n/g)].map((m) => m.index! + 1)];
      const at = (line = 1, column = 1): number => starts[line - 1] + column - 1;
      const spans = replacements.map((r) => [at(r.deletedRegion!.startLine, r.deletedRegion!.startColumn), at(r.deletedRegion!.endLine, r.deletedRegion!.endColumn), r.insertedContent?.text ?? ''] as const);
      return [...spans].sort((a, b) => b[0] - a[0]).reduce((out, [start, end, inserted]) => out.slice(0, start) + inserted + out.slice(end), text);
    };
    assert.equal(apply(lb, results[1].fixes![0].artifactChanges[0].replacements), lb.replace('Local\n  healthCheckNodePort: 31990\n', 'Cluster\n'));
    assert.equal(apply(proto, results[3].fixes![0].artifactChanges[0].replacements), proto.replace('protocol: tcp', 'protocol: TCP'));
    for (const r of results) for (const f of r.fixes ?? []) for (const c of f.artifactChanges) for (const { deletedRegion: d } of c.replacements) {
      assert.ok(d!.startLine! >= 1 && d!.startColumn! >= 1 && d!.endLine! >= d!.startLine! && d!.endColumn! >= 1, JSON.stringify(d));
    }
  });

  it('the schema check can fail: a result without a message is rejected', async () => {
    write('b.yaml', svc('c', 5678));
    const log = await sarif(['.']);
    delete (log.runs[0].results![0] as { message?: unknown }).message;
    assert.ok(schemaErrors(sarifValidator(), log).some((e) => /message/.test(e)));
  });

  it('rules carry plain text in every text field and the Markdown in markdown fields', async () => {
    const log = await sarif(['-'], svc('x', 30080));
    const rules = log.runs[0].tool.driver.rules!;
    assert.equal(rules.length, allRules.length);
    for (const d of rules) {
      const rule = allRules.find((r) => r.id === d.id)!;
      assert.equal(d.help!.markdown, rule.explanation);
      assert.equal(d.help!.text, markdownToText(rule.explanation));
      // No emphasis marks; a backtick only where the text itself quotes one (an API server message).
      for (const text of [d.help!.text, d.fullDescription!.text, d.shortDescription!.text]) {
        assert.doesNotMatch(text.replace(/must match `\w+` when `\w+` is true|"must match `\w+`"/g, ''), /\*\*|`/, `${d.id}: markdown in a text field`);
      }
      assert.ok(d.help!.text.length > 80, d.id);
    }
    const calico = rules.find((d) => d.id === 'calico-ip-autodetection')!;
    assert.match(calico.help!.markdown!, /\*\*autodetection\*\*/);
    assert.match(calico.help!.text, /by autodetection when the IP env var is autodetect/);
  });

  it('has no link that leads nowhere: no helpUri or informationUri (the help is in the log), every artifact exists', async () => {
    write('team a/a.yaml', svc('a', 30080, 'team-a'));
    write('b.yaml', svc('b', 30080, 'team-b'));
    const log = await sarif(['.']);
    const run = log.runs[0];
    assert.equal(run.tool.driver.informationUri, undefined);
    for (const d of run.tool.driver.rules!) {
      assert.equal(d.helpUri, undefined, `${d.id}: helpUri`);
      const links = [...markdownLinks(d.help!.markdown!), ...markdownLinks(d.fullDescription!.markdown ?? '')];
      assert.deepEqual(links.map(deadLinkReason).filter(Boolean), [], `${d.id}: links of its help`);
    }
    const base = run.originalUriBaseIds!['%SRCROOT%'].uri!;
    const uris = run.results!.flatMap((r) => [...r.locations!, ...(r.relatedLocations ?? [])]).map((l) => l.physicalLocation!.artifactLocation!);
    assert.ok(uris.length >= 4);
    for (const a of uris) assert.equal(deadLinkReason(new URL(a.uri!, a.uriBaseId ? base : undefined).href), undefined);
  });

  it('markdownToText keeps the words and drops the marks', () => {
    assert.equal(
      markdownToText('A **bold** `code` [link](https://example.com/x)\nnext line.\n\n- one\n- two `2`\n\n| a | b |\n| --- | --- |\n| 1 | `2` |\n\n```sh\nhelm template x | kube-netlint -\n```\n'),
      'A bold code link (https://example.com/x)\nnext line.\n\n- one\n- two 2\n\na | b\n1 | 2\n\n    helm template x | kube-netlint -',
    );
    assert.equal(markdownToText('1. first\n2. second'), '1. first\n2. second');
  });

  it('names %SRCROOT% in originalUriBaseIds as a file URI ending in /', async () => {
    write('a.yaml', svc('a', 5678));
    const log = await sarif(['a.yaml']);
    assert.deepEqual(log.runs[0].originalUriBaseIds, { '%SRCROOT%': { uri: `${pathToFileURL(dir).href}/` } });
    assert.equal(log.runs[0].results![0].locations![0].physicalLocation!.artifactLocation!.uriBaseId, '%SRCROOT%');
  });

  it('counts columns in UTF-16 code units and says so (columnKind), and keeps a backslash of a POSIX file name in it', async function () {
    if (process.platform === 'win32') this.skip();
    // One flow line, the emoji in an annotation (free text) before the nodePort.
    const flow = (name: string) => `# ${name}\n{apiVersion: v1, kind: Service, metadata: {annotations: {note: "\u{1F600}"}, name: ${name}}, spec: {type: NodePort, ports: [{port: 80, nodePort: 30080}]}}\n`;
    write('win/a\\b.yaml', flow('a'));
    write('win/c.yaml', flow('c'));
    const log = await sarif(['win']);
    assert.equal(log.runs[0].columnKind, 'utf16CodeUnits');
    const places = log.runs[0].results!.map((r) => {
      const p = r.locations![0].physicalLocation!;
      return [p.artifactLocation!.uri, p.region!.startLine, p.region!.startColumn, p.region!.endColumn];
    });
    const line = flow('a').split('\n')[1];
    const column = line.indexOf('30080') + 1; // 😀 is two UTF-16 code units, one code point
    assert.equal(column, 133);
    assert.deepEqual(places, [['win/a%5Cb.yaml', 2, column, column + 5], ['win/c.yaml', 2, column, column + 5]]);
  });

  it('partialFingerprints: a versioned key of our own, stable when lines move, distinct per finding', async () => {
    write('a.yaml', svc('a', 30080) + '---\n' + svc('b', 30080));
    const before = await sarif(['a.yaml']);
    write('a.yaml', '# a comment\n# and another\n' + svc('a', 30080) + '---\n# moved\n' + svc('b', 30080));
    const after = await sarif(['a.yaml']);
    const prints = (log: Log) => log.runs[0].results!.map((r) => r.partialFingerprints!);
    assert.deepEqual(Object.keys(prints(before)[0]), [FINGERPRINT_KEY]);
    assert.equal(FINGERPRINT_KEY, 'kubeNetlint/v1');
    assert.notEqual(before.runs[0].results![0].locations![0].physicalLocation!.region!.startLine, after.runs[0].results![0].locations![0].physicalLocation!.region!.startLine);
    assert.deepEqual(prints(after), prints(before));
    const values = prints(before).map((p) => p[FINGERPRINT_KEY]);
    assert.equal(new Set(values).size, values.length);
    assert.match(values[0], /^[0-9a-f]{32}:1$/);
    // Another value is another finding.
    write('a.yaml', svc('a', 30090) + '---\n' + svc('b', 30090));
    assert.notDeepEqual(prints(await sarif(['a.yaml'])), prints(before));
  });

  it('a rule that failed makes executionSuccessful false, with a notification naming the rule', () => {
    const text = formatSarif([], {
      rules: allRules,
      version: '1.2.3',
      srcRoot: dir,
      failures: [{ ruleId: 'nodeport-duplicate', error: 'TypeError: boom\n    at check (x.js:1:1)' }],
    });
    const log = JSON.parse(text) as Log;
    assert.deepEqual(schemaErrors(sarifValidator(), log), []);
    const [invocation] = log.runs[0].invocations!;
    assert.equal(invocation.executionSuccessful, false);
    const index = allRules.findIndex((r) => r.id === 'nodeport-duplicate');
    assert.deepEqual(invocation.toolExecutionNotifications, [
      { level: 'error', message: { text: 'rule nodeport-duplicate failed and was skipped: TypeError: boom' }, associatedRule: { id: 'nodeport-duplicate', index } },
    ]);
    const ok = JSON.parse(formatSarif([], { rules: allRules, version: '1.2.3', srcRoot: dir })) as Log;
    assert.deepEqual(ok.runs[0].invocations, [{ executionSuccessful: true }]);
  });
});
