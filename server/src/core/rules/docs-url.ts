/** Where a rule's documentation page is published (docs/rules/<id>.md in the repository). */
export const DOCS_BASE_URL = 'https://github.com/kube-netlint/kube-netlint/blob/main/docs/rules/';

export function ruleDocsUrl(ruleId: string): string {
  return `${DOCS_BASE_URL}${ruleId}.md`;
}
