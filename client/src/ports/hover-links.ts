import * as vscode from 'vscode';
import { SHOW_PORTS_COMMAND } from '../../../server/src/protocol/port-map-messages';

/**
 * Lets the hover's "Show port N in the node-port map" link run: hovers come from the language server as untrusted
 * markdown, where `command:` links do nothing. Only that one command is enabled, only in hovers that contain its
 * link, added to the commands already enabled there (the rule documentation link).
 */
export function trustPortMapLinks(hover: vscode.Hover | null | undefined): vscode.Hover | null | undefined {
  for (const content of hover?.contents ?? []) {
    if (!(content instanceof vscode.MarkdownString) || !content.value.includes(`command:${SHOW_PORTS_COMMAND}`)) continue;
    const trusted = content.isTrusted;
    if (trusted === true) continue;
    const enabled = typeof trusted === 'object' ? trusted.enabledCommands : [];
    content.isTrusted = { enabledCommands: [...enabled, SHOW_PORTS_COMMAND] };
  }
  return hover;
}
