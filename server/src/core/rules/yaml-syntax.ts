import type { Rule } from './rule';

/** Reports YAML the parser could not read, at the error's position; the rest of the workspace is still analysed. */
export const yamlSyntax: Rule = {
  id: 'yaml-syntax',
  title: 'YAML syntax error',
  severity: 'error',
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
  ].join('\n'),
  sources: [
    'https://yaml.org/spec/1.2.2/',
    'https://eemeli.org/yaml/#errors',
    'kubernetes staging/src/k8s.io/apimachinery/pkg/util/yaml/decoder.go (NewYAMLOrJSONDecoder: a stream starting with `{` is decoded as JSON values, v1.33)',
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
