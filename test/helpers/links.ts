import MarkdownIt from 'markdown-it';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(__dirname, '..', '..');
const md = new MarkdownIt({ linkify: false });

/** Link (`href`) and image (`src`) targets of a Markdown text, parsed by markdown-it (code spans and blocks do not count). */
function targets(text: string, kinds: readonly ('link' | 'image')[]): string[] {
  const out: string[] = [];
  const walk = (tokens: ReturnType<typeof md.parse>): void => {
    for (const t of tokens) {
      if (t.type === 'link_open' && kinds.includes('link')) out.push(t.attrGet('href') ?? '');
      if (t.type === 'image' && kinds.includes('image')) out.push(t.attrGet('src') ?? '');
      if (t.children) walk(t.children);
    }
  };
  walk(md.parse(text, {}));
  return out;
}

/** Every link and image target of a Markdown text, in order. */
export function markdownLinks(text: string): string[] {
  return targets(text, ['link', 'image']);
}

/** The image sources of a Markdown text, in order. */
export function markdownImages(text: string): string[] {
  return targets(text, ['image']);
}

/**
 * The project's home as package.json names it (`repository.url`, the one place it would be configured), as an https
 * address without `git+` or `.git`: what no emitted link may point at (rule pages ship with the package). Undefined
 * while package.json names none (the project has no public repository yet).
 */
export function projectHome(): string | undefined {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository?: { url: string } };
  return manifest.repository?.url.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** Commands the VS Code extension contributes (package.json `contributes.commands`). */
export function contributedCommands(): Set<string> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { commands: { command: string }[] } };
  return new Set(manifest.contributes.commands.map((c) => c.command));
}

/**
 * Why a link an editor or a report shows would lead nowhere, or undefined when it resolves: a `file:` URI must
 * name an existing file (a `#L12` fragment is fine), a `command:` URI a command the extension contributes, and
 * an http(s) address must not be the project's home (the rule pages are not published there). Other
 * http(s) addresses are the rules' Kubernetes sources, which tests cannot reach (no network).
 */
export function deadLinkReason(link: string): string | undefined {
  if (/^file:/.test(link)) {
    const file = fileURLToPath(link.replace(/#.*$/, ''));
    return existsSync(file) ? undefined : `${link}: no such file`;
  }
  if (/^command:/.test(link)) {
    const command = /^command:([^?]+)/.exec(link)![1];
    return contributedCommands().has(command) ? undefined : `${link}: command ${command} is not contributed by the extension`;
  }
  const home = projectHome();
  if (/^https?:/.test(link)) return home && link.startsWith(home) ? `${link}: the project's home, where nothing is published` : undefined;
  return `${link}: not a URI an editor or code scanning can open`;
}
