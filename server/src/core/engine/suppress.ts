/** Object annotation listing rule ids to ignore for that object: `kube-netlint.io/ignore: "rule-a,rule-b"`. */
export const IGNORE_ANNOTATION = 'kube-netlint.io/ignore';
export { DISABLE_LINE, DISABLE_NEXT_LINE, directiveIds, disableDirectiveRules } from '../load/suppressions';
