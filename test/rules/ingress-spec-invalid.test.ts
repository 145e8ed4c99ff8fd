import { strict as assert } from 'node:assert';
import { applyEdits, dedent, lint } from '../helpers/lint';

const rules = ['ingress-spec-invalid'];
// The first path's backend is on line 9 (line 10 with a defaultBackend line).
const ingress = (backends: string[], extra = '', apiVersion = 'networking.k8s.io/v1') => `
apiVersion: ${apiVersion}
kind: Ingress
metadata: {name: web, namespace: shop}
spec:
${extra}  rules:
    - host: shop.example.com
      http:
        paths:
${backends.map((b, i) => `          - {path: /p${i}, pathType: Prefix, backend: ${b}}\n`).join('')}`;
const check = (backends: string[], extra = '') => lint(ingress(backends, extra), { rules }).findings;
const WHO = 'Ingress shop/web';

describe('ingress-spec-invalid', () => {
  // Paths written entry by entry (the helper above writes pathType: Prefix for every one).
  const pathsIngress = (entries: string[], apiVersion = 'networking.k8s.io/v1') => `
apiVersion: ${apiVersion}
kind: Ingress
metadata: {name: web, namespace: shop}
spec:
  rules:
    - host: shop.example.com
      http:
        paths:
${entries.map((e) => `          - ${e}\n`).join('')}`;
  const WEB = 'backend: {service: {name: web, port: {number: 80}}}';

  it('reports a path without pathType (networking.k8s.io/v1 does not default it) at its path, and leaves that backend unvalidated as the API server does', () => {
    const fs = lint(pathsIngress([`{path: /, ${WEB}}`, '{path: /api, backend: {service: {name: web}}}', '{pathType: Prefix, path: /ok, backend: {service: {name: web}}}']), { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.severity]), [[9, 20, '/', 'error'], [10, 20, '/api', 'error'], [11, 62, '{name: web}', 'error']]);
    assert.equal(fs[0].message, `path "/" of host shop.example.com has no pathType: the API server rejects ${WHO} with "spec.rules[0].http.paths[0].pathType: Required value: pathType must be specified"; add pathType: Prefix (or Exact, ImplementationSpecific)`);
    // The third entry has its pathType: its backend's missing port is reported; the second's is not (validation stops at its pathType).
    assert.match(fs[2].message, /^backend of host shop\.example\.com path \/ok has no service\.port: /);
    // networking.k8s.io/v1beta1 and extensions/v1beta1 default pathType to ImplementationSpecific.
    for (const apiVersion of ['networking.k8s.io/v1beta1', 'extensions/v1beta1']) {
      assert.deepEqual(lint(pathsIngress(['{path: /, backend: {serviceName: web, servicePort: 80}}'], apiVersion), { rules }).findings, [], apiVersion);
    }
  });

  it('reports an unsupported pathType with a quick fix for its case, and a pathType or path that is not a string', () => {
    const text = dedent(pathsIngress([`{path: /api, pathType: prefix, ${WEB}}`, `{path: /x, pathType: Regex, ${WEB}}`, `{path: /y, pathType: 5, ${WEB}}`, `{path: 7, pathType: Exact, ${WEB}}`]));
    const fs = lint(text, { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.line, f.text, f.fixes.length]), [[9, 'prefix', 1], [10, 'Regex', 0], [11, '5', 0], [12, '7', 0]]);
    assert.equal(fs[0].message, `pathType "prefix" of path "/api" of host shop.example.com: the API server rejects ${WHO} with "spec.rules[0].http.paths[0].pathType: Unsupported value: "prefix": supported values: "Exact", "ImplementationSpecific", "Prefix""; write Prefix (case-sensitive)`);
    assert.equal(applyEdits(text, fs[0].fixes[0].edits), text.replace('pathType: prefix', 'pathType: Prefix'));
    assert.match(fs[1].message, /Unsupported value: "Regex": .*; use Prefix, Exact or ImplementationSpecific$/);
    assert.equal(fs[2].message, `pathType 5 of path "/y" of host shop.example.com is not a string: the API server cannot decode ${WHO} ("json: cannot unmarshal number into Go struct field HTTPIngressPath.spec.rules.http.paths.pathType of type v1.PathType"); use Prefix, Exact or ImplementationSpecific`);
    assert.match(fs[3].message, /^path 7 of paths\[3\] of host shop\.example\.com is not a string: .*paths\.path of type string"\); quote it$/);
    for (const f of fs) assert.ok(f.message.length <= 300, `${f.message.length}: ${f.message}`);
    // An alias gets no fix of its own; the anchored value's fix changes that value only (the quick-fix layer writes
    // the old value in place of each alias, as for any anchored value), and a quoted one keeps its quotes.
    const anchored = dedent(pathsIngress([`{path: /a, pathType: &pt prefix, ${WEB}}`, `{path: /b, pathType: *pt, ${WEB}}`, `{path: /c, pathType: "exact", ${WEB}}`]));
    const af = lint(anchored, { rules }).findings;
    assert.deepEqual(af.map((f) => [f.line, f.text, f.fixes.length]), [[9, 'prefix', 1], [10, '*pt', 0], [11, '"exact"', 1]]);
    assert.equal(applyEdits(anchored, af[0].fixes[0].edits), anchored.replace('&pt prefix', 'Prefix').replace('*pt', 'prefix'));
    assert.equal(applyEdits(anchored, af[2].fixes[0].edits), anchored.replace('"exact"', '"Exact"'));
  });

  it('reports Exact and Prefix paths that are not absolute or hold //, /./, /../, %2f or end in /.. or /., and ImplementationSpecific paths that are not absolute', () => {
    const entries = ['Prefix, path: api', 'Exact, path: /a//b', 'Prefix, path: /a/../b', 'Prefix, path: /a%2Fb', 'Exact, path: /a/..', 'ImplementationSpecific, path: api'].map((e) => `{pathType: ${e}, ${WEB}}`);
    const fs = lint(pathsIngress(entries), { rules }).findings;
    assert.deepEqual(fs.map((f) => [f.line, f.text, f.message.replace(/^.*Invalid value: "[^"]*": /, '').replace(/"; .*$/, '')]), [
      [9, 'api', 'must be an absolute path'],
      [10, '/a//b', "must not contain '//'"],
      [11, '/a/../b', "must not contain '/../'"],
      [12, '/a%2Fb', "must not contain '%2F'"],
      [13, '/a/..', "cannot end with '/..'"],
      [14, 'api', 'must be an absolute path'],
    ]);
    assert.equal(fs[0].message, `path "api" of host shop.example.com is not a valid path: the API server rejects ${WHO} with "spec.rules[0].http.paths[0].path: Invalid value: "api": must be an absolute path"; start it with /`);
  });

  it('stays silent for valid paths and path types, an ImplementationSpecific entry without a path, and regular expressions ingress-nginx reads', () => {
    const entries = ['{path: /, pathType: Prefix', '{path: /a/b.c, pathType: Exact', '{pathType: ImplementationSpecific', '{path: "/api(/|$)(.*)", pathType: ImplementationSpecific', '{path: /v1/.well-known, pathType: Prefix'].map((e) => `${e}, ${WEB}}`);
    assert.deepEqual(lint(pathsIngress(entries), { rules }).findings, []);
  });

  it('says to remove a !!str tag from service.port.number, and the fix removes it', () => {
    const text = dedent(ingress(['{service: {name: web, port: {number: !!str 80}}}']));
    const [f] = lint(text, { rules }).findings;
    assert.match(f.message, /^service\.port\.number "80" is not an integer: .* of type int32"\); remove the `!!str` tag$/);
    assert.match(applyEdits(text, f.fixes[0].edits), /port: \{number: 80\}\}/);
  });

  it('reports both port name and number, no port, and a quoted number, as validateIngressBackend and the decoder do', () => {
    const fs = check(['{service: {name: web, port: {number: 80, name: http}}}', '{service: {name: web}}', '{service: {name: web, port: {number: "80"}}}']);
    assert.deepEqual(fs.map((f) => [f.line, f.column, f.text, f.severity, f.object]), [
      [9, 80, '{number: 80, name: http}', 'error', WHO],
      [10, 62, '{name: web}', 'error', WHO],
      [11, 89, '"80"', 'error', WHO],
    ]);
    assert.deepEqual(fs.map((f) => f.message), [
      `backend of host shop.example.com path /p0 sets both service.port.name "http" and service.port.number 80: the API server rejects ${WHO} with "spec.rules[0].http.paths[0].backend: Invalid value: "": cannot set both port name & port number"; keep one`,
      `backend of host shop.example.com path /p1 has no service.port: the API server rejects ${WHO} with "spec.rules[0].http.paths[1].backend: Required value: port name or number is required"; add service.port.number or service.port.name`,
      `service.port.number "80" is not an integer: the API server cannot decode ${WHO} ("json: cannot unmarshal string into Go struct field ServiceBackendPort.spec.rules.http.paths.backend.service.port.number of type int32"); remove the quotes`,
    ]);
    for (const f of fs) assert.ok(f.message.length <= 300, `${f.message.length}: ${f.message}`);
    const text = dedent(ingress(['{service: {name: web, port: {number: "80"}}}']));
    const [quoted] = lint(text, { rules }).findings;
    assert.deepEqual(quoted.fixes.map((x) => x.title), ['Change service.port.number "80" to 80']);
    const fixed = applyEdits(text, quoted.fixes[0].edits);
    assert.match(fixed, /port: \{number: 80\}/);
    assert.deepEqual(lint(fixed, { rules }).findings, []);
  });

  it('reports the default backend, invalid numbers and names, missing service name, and service + resource', () => {
    const fs = check(
      ['{service: {name: web, port: {number: 70000}}}', '{service: {name: web, port: {name: HTTP}}}', '{service: {port: {number: 80}}}', '{service: {name: web, port: {number: 80}}, resource: {kind: Bucket, name: b}}', '{}'],
      '  defaultBackend: {service: {name: web, port: {number: 0}}}\n',
    );
    assert.deepEqual(fs.map((f) => [f.line, f.text]), [[5, '{number: 0}'], [10, '70000'], [11, 'HTTP'], [12, '{port: {number: 80}}'], [13, '{service: {name: web, port: {number: 80}}, resource: {kind: Bucket, name: b}}'], [14, '{}']]);
    assert.deepEqual(fs.map((f) => f.message.split(' with ')[1]), [
      '"spec.defaultBackend: Required value: port name or number is required"; add service.port.number or service.port.name',
      '"service.port.number: Invalid value: 70000: must be between 1 and 65535, inclusive"; use 1-65535',
      // One finding per value: the first of the API's causes (upper case breaks two).
      '"service.port.name: Invalid value: "HTTP": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"; write "http"',
      '"service.name: Required value"; add service.name',
      '"spec.rules[0].http.paths[3].backend: Invalid value: "": cannot set both resource and service backends"; keep one',
      '"spec.rules[0].http.paths[4].backend: Invalid value: "": resource or service backend is required"; add service (name and port)',
    ]);
    assert.ok(fs[0].message.startsWith('default backend has no service.port: '));
    // The quoted field path is the backend's own part: the message names the host and path.
    assert.ok(fs[2].message.startsWith('backend of host shop.example.com path /p1 names port "HTTP", not a valid port name (IANA_SVC_NAME): '), fs[2].message);
    assert.deepEqual(fs[2].fixes.map((x) => x.edits[0].newText), ['http']);
  });

  it('reports wrongly typed backends the decoder refuses: port written as a number, a numeric port name', () => {
    const fs = check(['{service: {name: web, port: 80}}', '{service: {name: web, port: {name: 8080}}}']);
    assert.deepEqual(fs.map((f) => [f.line, f.text, f.message]), [
      [9, '80', `service.port of the backend of host shop.example.com path /p0 is a number, not a mapping: the API server cannot decode ${WHO} ("json: cannot unmarshal number into Go struct field IngressServiceBackend.….service.port of type v1.ServiceBackendPort"); write port: {number: 80}`],
      [10, '8080', `service.port.name 8080 is not a string: the API server cannot decode ${WHO} ("json: cannot unmarshal number into Go struct field ServiceBackendPort.spec.rules.http.paths.backend.service.port.name of type string"); write it as service.port.number`],
    ]);
  });

  it('stays silent on valid backends, resource backends, old API versions, and missing parts in kustomize patches', () => {
    assert.deepEqual(check(['{service: {name: web, port: {number: 80}}}', '{service: {name: web, port: {name: http}}}', '{service: {name: web, port: {number: 0o120, name: ""}}}', '{resource: {apiGroup: k8s.example.com, kind: Bucket, name: b}}'], '  defaultBackend: {service: {name: web, port: {name: http}}}\n'), []);
    assert.deepEqual(lint(ingress(['{serviceName: web, servicePort: 80}'], '', 'networking.k8s.io/v1beta1'), { rules }).findings, []);
    assert.deepEqual(lint(ingress(['{serviceName: web, servicePort: http}'], '', 'extensions/v1beta1'), { rules }).findings, []);
    const files = {
      'base/ing.yaml': ingress(['{service: {name: web, port: {number: 80}}}']),
      'base/kustomization.yaml': 'resources: [ing.yaml]\n',
      'prod/kustomization.yaml': 'resources: [../base]\npatches: [{path: patch.yaml}]\n',
      'prod/patch.yaml': ingress(['{service: {port: {number: 8080}}}', '{service: {name: web}}']),
    };
    assert.deepEqual(lint(files, { rules }).findings.filter((f) => f.file === 'prod/patch.yaml'), []);
  });
});

describe('ingress-spec-invalid: rules, http and paths of the wrong type', () => {
  const where = (text: string) => lint(text, { rules }).findings.map((f) => [f.line, f.column, f.text, f.message]);
  const head = (name: string) => `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: ${name}, namespace: shop}\nspec:\n`;

  it('reports a rules that is not a list once, at the field', () => {
    assert.deepEqual(where(`${head('a')}  rules: "x"\n`), [
      [5, 10, '"x"', 'rules is a string, not a list of rules (host, http): the API server cannot decode Ingress shop/a ("json: cannot unmarshal string into Go struct field IngressSpec.spec.rules of type []v1.IngressRule")'],
    ]);
  });

  it('reports a rule, host, http, paths or path entry of the wrong type, each at its field, and the quoted port of a service backend with the mapping it takes', () => {
    assert.deepEqual(where(`${head('b')}  rules:
    - host: a.example.com
      http: "x"
    - host: b.example.com
      http: {paths: "x"}
    - host: 7
      http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
    - "d.example.com"
    - http: {paths: [/x]}
    - host: e.example.com
      http: {paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: "80"}}}]}
`), [
      [7, 13, '"x"', 'http of host a.example.com is a string, not a mapping with paths: the API server cannot decode Ingress shop/b ("json: cannot unmarshal string into Go struct field IngressRule.spec.rules.http of type v1.HTTPIngressRuleValue")'],
      [9, 21, '"x"', 'http.paths of host b.example.com is a string, not a list of paths (path, pathType, backend): the API server cannot decode Ingress shop/b ("json: cannot unmarshal string into Go struct field HTTPIngressRuleValue.spec.rules.http.paths of type []v1.HTTPIngressPath")'],
      [10, 13, '7', 'host 7 of rule #2 is not a string: the API server cannot decode Ingress shop/b ("json: cannot unmarshal number into Go struct field IngressRule.spec.rules.host of type string"); quote it'],
      [12, 7, '"d.example.com"', 'rule #3 is a string, not a mapping (host, http): the API server cannot decode Ingress shop/b ("json: cannot unmarshal string into Go struct field IngressSpec.spec.rules of type v1.IngressRule")'],
      [13, 22, '/x', 'paths[0] of rule #4 is a string, not a mapping (path, pathType, backend): the API server cannot decode Ingress shop/b ("json: cannot unmarshal string into Go struct field HTTPIngressRuleValue.spec.rules.http.paths of type v1.HTTPIngressPath")'],
      [15, 87, '"80"', 'service.port of the backend of host e.example.com path / is a string, not a mapping: the API server cannot decode Ingress shop/b ("json: cannot unmarshal string into Go struct field IngressServiceBackend.….service.port of type v1.ServiceBackendPort"); write port: {number: 80}'],
    ]);
  });

  it('says a port name written in place of the port mapping is the mapping\'s name', () => {
    assert.deepEqual(where(`${head('c')}  defaultBackend: {service: {name: web, port: http}}\n`).map((f) => f[3]), [
      'service.port of the default backend is a string, not a mapping: the API server cannot decode Ingress shop/c ("json: cannot unmarshal string into Go struct field IngressServiceBackend.….service.port of type v1.ServiceBackendPort"); write port: {name: http}',
    ]);
  });

  it('reports an ingressClassName, tls, tls entry, hosts or secretName of the wrong type, at the field', () => {
    assert.deepEqual(where(`${head('t')}  ingressClassName: 5
  defaultBackend: {service: {name: web, port: {number: 80}}}
  tls:
    - hosts: shop.example.com
      secretName: web-tls
    - {hosts: [a.example.com, 443], secretName: true}
    - web-tls
`), [
      [5, 21, '5', 'ingressClassName 5 is not a string: the API server cannot decode Ingress shop/t ("json: cannot unmarshal number into Go struct field IngressSpec.spec.ingressClassName of type string"); quote it'],
      [8, 14, 'shop.example.com', 'hosts of tls entry #0 is a string, not a list of host names: the API server cannot decode Ingress shop/t ("json: cannot unmarshal string into Go struct field IngressTLS.spec.tls.hosts of type []string"); write hosts: [shop.example.com]'],
      [10, 31, '443', 'host 443 of tls entry #1 is not a string: the API server cannot decode Ingress shop/t ("json: cannot unmarshal number into Go struct field IngressTLS.spec.tls.hosts of type string"); quote it'],
      [10, 49, 'true', 'secretName true of tls entry #1 is not a string: the API server cannot decode Ingress shop/t ("json: cannot unmarshal bool into Go struct field IngressTLS.spec.tls.secretName of type string"); quote it'],
      [11, 7, 'web-tls', 'tls entry #2 is a string, not a mapping (hosts, secretName): the API server cannot decode Ingress shop/t ("json: cannot unmarshal string into Go struct field IngressSpec.spec.tls of type v1.IngressTLS")'],
    ]);
    assert.deepEqual(where(`${head('u')}  defaultBackend: {service: {name: web, port: {number: 80}}}
  tls: "web-tls"
`).map((f) => f.slice(0, 3)), [[6, 8, '"web-tls"']]);
    assert.deepEqual(where(`${head('v')}  ingressClassName: null
  defaultBackend: {service: {name: web, port: {number: 80}}}
  tls: [null, {hosts: null}, {hosts: [a.example.com, null], secretName: null}, {}]
`), []);
  });

  it('stays silent on null rules, hosts, http, paths and entries (the decoder reads them as not set or empty) and on a rule without http', () => {
    assert.deepEqual(where(`${head('d')}  defaultBackend: {service: {name: web, port: {number: 80}}}
  rules:
    - null
    - {host: null, http: null}
    - host: a.example.com
    - host: c.example.com
      http: {paths: [null, {path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]}
`), []);
    assert.deepEqual(where(`${head('e')}  defaultBackend: {service: {name: web, port: {number: 80}}}\n  rules: null\n`), []);
  });

  it('reports an Ingress with neither rules nor a defaultBackend, and an http without paths (also null or []), as validation does; not in a kustomize patch', () => {
    assert.deepEqual(where(`${head('none')}  ingressClassName: nginx\n---\n${head('empty')}  rules: []\n---\n${head('http')}  rules:
    - host: a.example.com
      http: {}
    - http: {paths: []}
    - host: b.example.com
      http: {paths: null}
    - host: c.example.com
`), [
      [5, 3, 'ingressClassName: nginx\n', 'Ingress shop/none has neither rules nor a defaultBackend: the API server rejects it ("either `defaultBackend` or `rules` must be specified"); add a rule with http paths, or a defaultBackend'],
      [11, 10, '[]', 'Ingress shop/empty has neither rules nor a defaultBackend: the API server rejects it ("either `defaultBackend` or `rules` must be specified"); add a rule with http paths, or a defaultBackend'],
      [19, 13, '{}', 'http of host a.example.com has no paths: the API server rejects Ingress shop/http with "spec.rules[0].http.paths: Required value"; add a path with its backend, or remove http'],
      [20, 21, '[]', 'http of rule #1 has no paths: the API server rejects Ingress shop/http with "spec.rules[1].http.paths: Required value"; add a path with its backend, or remove http'],
      [22, 13, '{paths: null}', 'http of host b.example.com has no paths: the API server rejects Ingress shop/http with "spec.rules[2].http.paths: Required value"; add a path with its backend, or remove http'],
    ]);
    const patch = lint({
      'kustomization.yaml': 'resources: [ing.yaml]\npatches: [{path: patch.yaml}]\n',
      'ing.yaml': `${head('web')}  defaultBackend: {service: {name: web, port: {number: 80}}}\n`,
      'patch.yaml': `${head('web')}  ingressClassName: nginx\n`,
    }, { rules }).findings;
    assert.deepEqual(patch.filter((f) => f.file === 'patch.yaml'), []);
  });
});
