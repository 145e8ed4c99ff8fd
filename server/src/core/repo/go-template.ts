import { Document, isCollection, visit } from 'yaml';

/**
 * True when a file holds Go template actions (Helm, `{{ .Values.port }}`) rather than YAML data: the
 * text contains `{{` and either the YAML parser fails on it, or a mapping/sequence starts with `{{`
 * (`nodePort: {{ .Values.port }}` parses as a nested flow mapping). `{{` inside quoted or block
 * string values (Prometheus alert annotations, Alertmanager templates) does not count: those
 * files are ordinary manifests.
 */
export function looksLikeGoTemplate(text: string, docs: readonly Document.Parsed[]): boolean {
  if (!text.includes('{{')) return false;
  if (docs.some((d) => d.errors.length > 0)) return true;
  let found = false;
  for (const doc of docs) {
    visit(doc, (_key, node) => {
      if (isCollection(node) && node.range && text.startsWith('{{', node.range[0])) {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    });
    if (found) return true;
  }
  return false;
}
