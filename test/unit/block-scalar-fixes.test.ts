import { strict as assert } from 'node:assert';
import { applyEdits, lint } from '../helpers/lint';

const service = (protocol: string, after: string, eol = '\n') => [
  'apiVersion: v1',
  'kind: Service',
  'metadata: {name: web, namespace: shop}',
  'spec:',
  '  selector: {app: web}',
  '  ports:',
  '    - port: 80',
  `      protocol: ${protocol}`,
  '        tcp',
  ...after.split('\n'),
].join(eol);

/** The text after the preferred fix of the only finding of `rule`, and that the fixed text lints clean. */
function fixed(text: string, rule: string): string {
  const { findings } = lint(text, { rules: [rule] });
  assert.equal(findings.length, 1, findings.map((f) => f.message).join('\n'));
  const out = applyEdits(text, findings[0].fixes[0].edits);
  assert.deepEqual(lint(out).findings.filter((f) => f.severity === 'error').map((f) => `${f.ruleId}: ${f.message}`), []);
  return out;
}

describe('quick fixes replacing a block scalar', () => {
  it('end at the end of its content: the line break, the next line and its indentation stay', () => {
    for (const header of ['|-', '>-', '|2-', '>-2', '!!str |-', '&p |-', '!!str &p >-', '|- # lower case']) {
      const cases: [string, string][] = [
        ['      name: http', 'a key after it'],
        ['      # the web port\n      name: http', 'a comment line after it'],
        ['---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}', 'another document after it'],
        ['', 'the end of the file after it'],
        ['\n\n      name: http', 'empty lines after it'],
      ];
      for (const [after, what] of cases) {
        const text = service(header, after);
        const prefix = header.replace(/\s*#.*$/, '').replace(/(?:^|\s)[|>].*$/, '');
        const expected = text.replace(`protocol: ${header}\n        tcp`, `protocol: ${prefix ? `${prefix} ` : ''}TCP`);
        assert.equal(fixed(text, 'service-spec-invalid'), expected, `${header} with ${what}`);
      }
    }
  });

  it('keep CRLF line ends', () => {
    const text = service('|-', '      name: http\n', '\r\n');
    assert.equal(fixed(text, 'service-spec-invalid'), text.replace('protocol: |-\r\n        tcp', 'protocol: TCP'));
  });

  it('fix a probe scheme written as a folded scalar', () => {
    const text = [
      'apiVersion: v1',
      'kind: Pod',
      'metadata: {name: web, namespace: shop}',
      'spec:',
      '  containers:',
      '    - name: web',
      '      image: nginx',
      '      readinessProbe:',
      '        httpGet:',
      '          port: 8080',
      '          scheme: >-',
      '            https',
      '        periodSeconds: 5',
      '',
    ].join('\n');
    assert.equal(fixed(text, 'pod-spec-invalid'), text.replace('scheme: >-\n            https', 'scheme: HTTPS'));
  });

  it('leave the replacement of a quoted scalar as it was', () => {
    const text = service('"tcp"', '      name: http').replace('\n        tcp', '');
    assert.equal(fixed(text, 'service-spec-invalid'), text.replace('"tcp"', 'TCP'));
  });
});
