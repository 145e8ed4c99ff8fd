import { isScalar, Scalar } from 'yaml';

/**
 * YAML written inside a string of another YAML file (a kustomization's inline `patch: |-`, an Argo CD
 * Application's `helm.values: |`): its text, and a map from offsets in that text back to offsets in the file,
 * so findings land on the line the user edits. Exact for literal block scalars (`|`, `|-`, `|+`, with or
 * without an indentation indicator) and for plain or single-quoted one-line strings; other forms (folded `>`,
 * double-quoted with escapes) map every offset to the start of the string.
 */
export interface EmbeddedText {
  readonly text: string;
  toFileOffset(offset: number): number;
}

/** The embedded text of a scalar node of `fileText`, or undefined when the node is not a string scalar. */
export function embeddedText(node: unknown, fileText: string): EmbeddedText | undefined {
  if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
  const text = node.value;
  const [start, end] = node.range;
  const fallback: EmbeddedText = { text, toFileOffset: () => start };
  if (node.type === Scalar.BLOCK_LITERAL) {
    const headerEnd = fileText.indexOf('\n', start);
    if (headerEnd < 0) return fallback;
    const explicit = /^[|][+-]?(\d)|^[|]\d/.exec(fileText.slice(start, headerEnd));
    // File offsets where each content line starts, and the indentation kustomize/yaml strip from them.
    const lineStarts: number[] = [];
    for (let i = headerEnd + 1; i < end; ) {
      lineStarts.push(i);
      const nl = fileText.indexOf('\n', i);
      if (nl < 0 || nl >= end) break;
      i = nl + 1;
    }
    const first = lineStarts.map((s) => fileText.slice(s, fileText.indexOf('\n', s) < 0 ? end : fileText.indexOf('\n', s))).find((l) => l.trim());
    const indent = explicit ? Number(explicit[1]) : first ? /^ */.exec(first)![0].length : 0;
    const valueLineStarts: number[] = [0];
    for (let i = text.indexOf('\n'); i >= 0 && valueLineStarts.length < lineStarts.length; i = text.indexOf('\n', i + 1)) valueLineStarts.push(i + 1);
    // Sanity check: the first content line of the file, less its indentation, starts the value.
    if (first && !text.startsWith(first.slice(indent).trimEnd().slice(0, 20))) return fallback;
    return {
      text,
      toFileOffset(offset: number): number {
        let line = 0;
        while (line + 1 < valueLineStarts.length && valueLineStarts[line + 1] <= offset) line++;
        const col = offset - valueLineStarts[line];
        return Math.min(end, (lineStarts[line] ?? start) + indent + col);
      },
    };
  }
  if (node.type === Scalar.PLAIN || node.type === Scalar.QUOTE_SINGLE) {
    if (text.includes('\n') || (node.type === Scalar.QUOTE_SINGLE && text.includes("'"))) return fallback;
    const base = start + (node.type === Scalar.QUOTE_SINGLE ? 1 : 0);
    return { text, toFileOffset: (offset) => Math.min(end, base + offset) };
  }
  return fallback;
}
