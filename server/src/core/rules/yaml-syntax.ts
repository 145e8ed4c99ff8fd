import type { Rule } from './rule';

/** Reports YAML the parser could not read, at the error's position; the rest of the workspace is still analysed. */
export const yamlSyntax: Rule = {
  id: 'yaml-syntax',
  title: 'YAML syntax error',
  severity: 'error',
  reportsRejection: true,
  explanation: [
    'The file is not valid YAML at this position, so `kubectl apply` would refuse it and kube-netlint cannot read the',
    'objects of this document. The other documents of the file and the rest of the workspace are still analysed.',
    '',
    'Typical causes: inconsistent indentation, a tab used for indentation, a duplicate key, an unquoted value that',
    'starts with a YAML indicator (`*`, `&`, `{`, `@`), or a Helm/Go template (`{{ ... }}`) that is not rendered yet.',
    '',
    'A file (or standard input) whose first non-space character is `{` is read as kubectl reads it: as a stream of',
    'JSON objects (`{…}{…}`, or one object per line), each with its own lines. Where kubectl\'s JSON decoder stops —',
    'YAML or a comment after the JSON, text that is not JSON, an object that is not closed — one finding names the',
    'line; the objects before it are read, nothing after it.',
    '',
    'A `%` directive (`%YAML 1.2`, `%YAML 1.1`, `%TAG …`) is valid YAML that no Kubernetes tool reads: kubectl splits',
    'the file at `---` lines and hands each part to go-yaml v2, which refuses a directive with no document after it',
    '("did not find expected <document start>"), any version but 1.1 ("found incompatible YAML document") and unknown',
    'directives ("found unknown directive name"); kubectl stops there, and kustomize refuses the whole file',
    '(MalformedYAMLError). The finding is at the directive; the documents before it are analysed (kubectl reads them),',
    'that document and the later ones are not. Delete the directive: Kubernetes reads manifests as YAML 1.1 either way.',
  ].join('\n'),
  sources: [
    'https://yaml.org/spec/1.2.2/',
    'https://eemeli.org/yaml/#errors',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go (NewYAMLOrJSONDecoder: a stream starting with `{` is decoded as JSON values; YAMLReader splits documents at `---` lines, v1.33)',
    'go-yaml v2 parserc.go (yaml_parser_process_directives: "found incompatible YAML document" unless %YAML 1.1) and scannerc.go ("found unknown directive name"), as vendored by sigs.k8s.io/yaml (goyaml.v2)',
    'kubectl v1.32.4 / kustomize v5.5.0, run on files with %YAML 1.1, %YAML 1.2, %TAG and an unknown directive (kubectl label --local -f, kubectl kustomize)',
  ],
  check({ model }) {
    return model.problems.filter((p) => !p.code.startsWith('FILE_') && !p.code.startsWith('OBJECT_')).map((p) => ({
      ruleId: 'yaml-syntax',
      severity: p.severity,
      message: p.message, // the parser's own words; its error code (BAD_INDENT, …) means nothing to a user
      span: p.span,
      related: [],
      fixes: [],
    }));
  },
};
