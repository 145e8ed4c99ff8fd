import * as vscode from 'vscode';

/** Command ids contributed in package.json (category "kube-netlint"). */
export const COMMANDS = {
  restartServer: 'kubeNetlint.restartServer',
  showOutput: 'kubeNetlint.showOutput',
} as const;

/** What the commands act on. */
export interface CommandTarget {
  restart(): Promise<void>;
  readonly outputChannel: vscode.OutputChannel;
}

/** Registers "kube-netlint: Restart Server" and "kube-netlint: Show Output". */
export function registerCommands(target: CommandTarget): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(COMMANDS.restartServer, () => target.restart()),
    vscode.commands.registerCommand(COMMANDS.showOutput, () => target.outputChannel.show(true)),
  ];
}
