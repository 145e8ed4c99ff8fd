import { isScalar, parseAllDocuments } from 'yaml';
import { QUIET } from './parse-options';

/**
 * True when `text` holds no YAML document with content: nothing, only comments and blank lines, or only empty
 * (or explicitly `null`) documents between `---` markers. That is what kubectl's decoders skip, so `kubectl apply -f -`
 * answers such input with "no objects passed to apply"; the CLI treats standard input like this as "no manifests
 * found" (a failed `helm template … | kube-netlint -` must not pass). Never throws; a syntax error is content.
 */
export function holdsNoDocument(text: string): boolean {
  const docs = parseAllDocuments(text, QUIET);
  if (!Array.isArray(docs)) return true; // yaml's EmptyStream: no document at all
  return docs.every((doc) => doc.errors.length === 0 && (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)));
}
