import { strict as assert } from 'node:assert';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from 'vscode-languageserver-protocol/node';
import { contributedCommands, deadLinkReason, markdownLinks } from '../helpers/links';
import { TestClient, uriOf } from './lsp-client';

const EXAMPLES = join(__dirname, '..', '..', 'examples');

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

/**
 * Every link the language server hands an editor on examples/ — diagnostics' codeDescription, every hover on a
 * finding and on the other side of it, every code action's command — leads somewhere: a file that exists, a
 * command the extension contributes, or an address that is not the project's unpublished home.
 */
describe('links the language server emits resolve', function () {
  this.timeout(60000);
  for (const [client, initializationOptions] of [
    ['VS Code (command links)', { showRuleDocumentationCommand: true, portMapView: true }],
    ['another LSP editor (file: links)', {}],
  ] as const) {
    it(`for ${client}`, async () => {
      const lsp = await TestClient.start([EXAMPLES], { initializationOptions });
      try {
        const broker = join(EXAMPLES, 'streaming', 'broker.yaml');
        await lsp.waitFor(broker, (d) => d.some((x) => x.code === 'host-port-conflicts-healthcheck-nodeport'));
        const links: { where: string; link: string }[] = [];
        const commands: { where: string; command: string }[] = [];
        let hovers = 0;
        for (const file of yamlFiles(EXAMPLES)) {
          const diagnostics: Diagnostic[] = lsp.diagnostics.get(uriOf(file)) ?? [];
          if (!diagnostics.length) continue;
          lsp.open(file);
          for (const d of diagnostics) {
            const where = `${file}:${d.range.start.line + 1} ${String(d.code)}`;
            if (d.codeDescription) links.push({ where, link: d.codeDescription.href });
            const hover = await lsp.hover(file, d.range.start.line, d.range.start.character);
            if (hover) {
              hovers++;
              for (const link of markdownLinks((hover.contents as { value: string }).value)) links.push({ where: `hover at ${where}`, link });
            }
            for (const action of await lsp.codeActions(file, d.range, [d])) {
              if (action.command) commands.push({ where: `${action.title} at ${where}`, command: action.command.command });
            }
          }
        }
        assert.ok(hovers >= 5 && links.length >= 10, `${hovers} hovers, ${links.length} links`);
        assert.deepEqual(links.map(({ where, link }) => [where, deadLinkReason(link)]).filter(([, reason]) => reason), []);
        const contributed = contributedCommands();
        assert.deepEqual(commands.filter((c) => !contributed.has(c.command)), []);
        // The two kinds of rule link: the command for VS Code, the shipped page for the rest.
        if (initializationOptions.showRuleDocumentationCommand) assert.ok(links.some((l) => l.link.startsWith('command:kubeNetlint.showRuleDocumentation?')));
        else assert.ok(links.some((l) => /^file:.*\/docs\/rules\/[a-z0-9-]+\.md$/.test(l.link)) && !links.some((l) => l.link.startsWith('command:')));
      } finally {
        await lsp.stop();
      }
    });
  }
});
