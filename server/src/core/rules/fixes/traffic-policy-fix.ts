import type { Located } from '../../source/span';
import type { Fix } from '../rule';

/** A fix replacing a traffic policy value with `Cluster`; edits only that scalar. */
export function setToCluster(value: Located<string>, title: string, preferred: boolean): Fix {
  return { title, edits: [{ span: value.span, newText: 'Cluster' }], preferred };
}
