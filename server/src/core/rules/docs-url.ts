/** The project's home (package.json `homepage` / `repository` agree: test/unit/package-json.test.ts). */
export const PROJECT_URL = 'https://github.com/kube-netlint/kube-netlint';

/** Where a rule's documentation page is published (docs/rules/<id>.md in the repository). */
export const DOCS_BASE_URL = `${PROJECT_URL}/blob/main/docs/rules/`;

export function ruleDocsUrl(ruleId: string): string {
  return `${DOCS_BASE_URL}${ruleId}.md`;
}
