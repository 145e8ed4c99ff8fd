// The README of the extension page, as the .vsix ships it: client/README.md with each image it names by a
// relative path (`![…](../images/screenshot.png)`, relative to the README as in any Markdown viewer) inlined as a
// `data:` URI.
//
// Why: VS Code's extension editor renders the README of an installed extension in a webview whose
// Content-Security-Policy allows images only from `https:` and `data:`, with no base URL — a relative path
// resolves against the webview's own address and shows only the alt text. vsce's usual answer
// (rewriting relative links against the repository or --baseImagesUrl) needs the image on a web site, which a
// .vsix installed from a file cannot count on. A data: URI works in VS Code and code-server alike.
// test/e2e/package.e2e.ts checks the result; the e2e suite checks that the extension page shows the image.
import MarkdownIt from 'markdown-it';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const MIME = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };

/** The relative image paths of a Markdown text, in order (markdown-it's tokens: code blocks and spans do not count). */
export function relativeImages(markdown) {
  const out = [];
  const walk = (tokens) => {
    for (const t of tokens) {
      if (t.type === 'image') {
        const src = t.attrGet('src') ?? '';
        if (!/^[a-z][a-z0-9+.-]*:/i.test(src) && !src.startsWith('/') && !src.startsWith('#')) out.push(src);
      }
      if (t.children) walk(t.children);
    }
  };
  walk(new MarkdownIt().parse(markdown, {}));
  return out;
}

/**
 * `markdown` with every relative image (resolved against `readmeDir`, the README's folder) replaced by a data:
 * URI of its bytes. Throws for an image that does not exist, one outside `rootDir` (the repository), or a
 * format the extension page may not show (SVG: vsce refuses SVG data URIs).
 */
export function inlineImages(markdown, readmeDir, rootDir) {
  let out = markdown;
  for (const src of new Set(relativeImages(markdown))) {
    const file = path.resolve(readmeDir, decodeURI(src));
    if (!file.startsWith(path.resolve(rootDir) + path.sep)) throw new Error(`README image ${src} is outside ${rootDir}`);
    const mime = MIME[path.extname(file).toLowerCase()];
    if (!mime) throw new Error(`README image ${src}: use PNG, JPEG, GIF or WebP (SVG images are not shown on the extension page)`);
    const uri = `data:${mime};base64,${readFileSync(file).toString('base64')}`;
    const target = `](${src})`;
    if (!out.includes(target)) throw new Error(`README image ${src}: write it as ![alt](${src}) (no title) so it can be inlined`);
    out = out.split(target).join(`](${uri})`);
  }
  return out;
}
