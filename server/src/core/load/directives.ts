import { Parser } from 'yaml';
import type { LoadProblem } from './load-file';

/**
 * `%` directives (`%YAML 1.2`, `%TAG !e! tag:example.com,2000:`) and what kubectl and kustomize do with them.
 *
 * Valid YAML, but no Kubernetes tool reads a file that has one. kubectl (`apply -f`, `create -f`, …) splits a
 * file into documents at `---` lines (k8s.io/apimachinery pkg/util/yaml YAMLReader) and converts each with
 * sigs.k8s.io/yaml, i.e. go-yaml v2; a directive is then a document of its own with no content, which go-yaml
 * refuses: `%YAML 1.1` and `%TAG` with "did not find expected <document start>", any other `%YAML` version
 * with "found incompatible YAML document" (go-yaml v2 accepts only 1.1: yaml_parser_process_directives in
 * parserc.go), an unknown directive with "found unknown directive name" (scannerc.go). kubectl stops at that
 * document ("error converting YAML to JSON: yaml: …"); kustomize (kyaml) refuses the whole file
 * (MalformedYAMLError). Checked with kubectl v1.32.4 / kustomize v5.5.0: `kubectl label --local -f` and
 * `kubectl kustomize` print exactly these errors for each kind of directive.
 */

/** One directive of a YAML stream. */
export interface StreamDirective {
  /** Offset of the `%` in the text. */
  readonly offset: number;
  /** The directive line as written, without the newline (`%YAML 1.2`). */
  readonly source: string;
  /** Index of the document it precedes (as `yaml`'s composer numbers documents). */
  readonly docIndex: number;
}

/**
 * The directives of `text`, read from `yaml`'s CST (a directive is a stream-level token, so `%` inside a
 * scalar or a comment is never one). Only texts with a `%` at the start of a line are parsed again.
 */
export function streamDirectives(text: string): StreamDirective[] {
  if (!/^%/m.test(text)) return [];
  const out: StreamDirective[] = [];
  let docIndex = 0;
  for (const token of new Parser().parse(text)) {
    if (token.type === 'document') docIndex++;
    else if (token.type === 'directive') out.push({ offset: token.offset, source: token.source, docIndex });
  }
  return out;
}

/** go-yaml v2's error for a document holding only this directive (what kubectl and kustomize print). */
export function goYamlDirectiveError(source: string): string {
  const [name, version] = source.trim().split(/\s+/);
  if (name === '%YAML') return version === '1.1' ? 'did not find expected <document start>' : 'found incompatible YAML document';
  if (name === '%TAG') return 'did not find expected <document start>';
  return 'found unknown directive name';
}

/**
 * The problem reported at a directive (code `YAML_DIRECTIVE`, an error: reported by yaml-syntax). `before` is
 * how many documents precede it, which kubectl still reads.
 */
export function directiveProblem(file: string, d: StreamDirective): LoadProblem {
  const name = d.source.trim().split(/\s+/)[0];
  const stops = d.docIndex === 0 ? 'kubectl apply reads none of this file' : `kubectl apply reads only the ${d.docIndex} document${d.docIndex === 1 ? '' : 's'} before it`;
  return {
    span: { file, start: d.offset, end: d.offset + d.source.length },
    code: 'YAML_DIRECTIVE',
    severity: 'error',
    message: `${name} directive: kubectl and kustomize refuse it ("yaml: ${goYamlDirectiveError(d.source)}"), so ${stops} and kustomize builds nothing; delete the line (they read YAML 1.1 anyway)`,
  };
}
