import { Composer, CST, Document, LineCounter, Parser, YAMLParseError } from 'yaml';
import { QUIET } from './parse-options';

/**
 * Deepest nesting of collections (block or flow mappings and sequences) a document may have before it is
 * refused with a `NESTING_TOO_DEEP` problem instead of being composed. `yaml`'s composer recurses once per
 * level: near ~800 levels it exhausts the stack, and a second such document in one file aborts Node with
 * `FATAL ERROR: RegExpCompiler Allocation failed - process out of memory` (not an exception: the process
 * dies). Real manifests stay far below this (deep CRD schemas reach ~60 levels); Kubernetes' own decoders
 * allow 10,000 (go-yaml v2 `max_flow_level` / `max_indents`), so such a file is not invalid for the API
 * server: it is beyond what kube-netlint reads.
 */
export const MAX_NESTING_DEPTH = 256;

/** Where a CST document first goes deeper than {@link MAX_NESTING_DEPTH}, or undefined. Iterative (no recursion). */
export function tooDeepAt(doc: CST.Document): number | undefined {
  const stack: [CST.Token, number][] = doc.value ? [[doc.value, 1]] : [];
  while (stack.length) {
    const [token, depth] = stack.pop()!;
    if (!CST.isCollection(token)) continue;
    if (depth > MAX_NESTING_DEPTH) return token.offset;
    for (const item of token.items) {
      if (item.key) stack.push([item.key, depth + 1]);
      if (item.value) stack.push([item.value, depth + 1]);
    }
  }
  return undefined;
}

/**
 * The CST tokens of `tokens` with every document that nests too deeply emptied (its `---` and comments
 * kept, so document boundaries and indexes do not move); `refused` gets the document's index (the
 * composer makes exactly one Document per document token) and the offset where the limit is crossed.
 */
function* guarded(tokens: Iterable<CST.Token>, refused: [number, number][]): Generator<CST.Token> {
  let index = 0;
  for (const token of tokens) {
    if (token.type === 'document') {
      const at = tooDeepAt(token);
      index++;
      if (at !== undefined) {
        refused.push([index - 1, at]);
        yield { ...token, value: undefined, end: undefined };
        continue;
      }
    }
    yield token;
  }
}

export interface ParseOptions {
  readonly lineCounter?: LineCounter;
  /** Offset of `text` in its file (re-parsing one document of a file), so ranges come out in file offsets. */
  readonly offset?: number;
}

/**
 * `yaml`'s `parseAllDocuments` (same Parser → Composer pipeline, same documents and errors) with the
 * nesting guard: a document deeper than {@link MAX_NESTING_DEPTH} is composed as an empty document carrying
 * one `NESTING_TOO_DEEP` error at the first collection beyond the limit, so the file's other documents are
 * still read and nothing recurses that deep. Returns the documents (possibly none) and, for an empty
 * stream, the stream's own errors (`yaml`'s EmptyStream).
 * @param composeOptions `yaml` document options (schema version, merge keys…)
 */
export function parseDocuments(text: string, composeOptions: ConstructorParameters<typeof Composer>[0], options: ParseOptions = {}): {
  docs: Document.Parsed[];
  streamErrors: readonly YAMLParseError[];
} {
  const parser = new Parser(options.lineCounter?.addNewLine);
  if (options.offset) parser.offset = options.offset;
  const composer = new Composer({ ...QUIET, ...composeOptions });
  const refused: [number, number][] = [];
  const docs = Array.from(composer.compose(guarded(parser.parse(text), refused))) as Document.Parsed[];
  for (const [index, at] of refused) {
    const doc = docs[index];
    const error = new YAMLParseError([at, at + 1], 'NESTING_TOO_DEEP' as never,
      `collections nested more than ${MAX_NESTING_DEPTH} levels deep: kube-netlint does not read this document; flatten it or split it into several objects`);
    if (doc) doc.errors.push(error);
  }
  return { docs, streamErrors: docs.length ? [] : composer.streamInfo().errors };
}

/**
 * `yaml`'s `parse(text)` (the JS value of a single-document text, as for embedded configs such as the
 * kube-proxy ConfigMap's `config.conf`) with the nesting guard of {@link parseDocuments}.
 * @returns null for an empty text
 * @throws YAMLParseError on the document's first error (a too-deep document included), or `MULTIPLE_DOCS`
 *   when the text holds more than one document, as `parse` does
 */
export function parseYamlValue(text: string): unknown {
  const { docs } = parseDocuments(text, {});
  const doc = docs[0];
  if (!doc) return null;
  if (doc.errors.length) throw doc.errors[0];
  if (docs.length > 1) throw new YAMLParseError([docs[1].range[0], docs[1].range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()');
  return doc.toJS();
}
