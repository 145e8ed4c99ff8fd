import MarkdownIt from 'markdown-it';

type Token = ReturnType<MarkdownIt['parse']>[number];

const parser = new MarkdownIt('commonmark').enable('table');

/**
 * Markdown as plain text (what SARIF's `text` fields need beside `markdown`, SARIF 2.1.0 §3.12):
 * emphasis and code marks dropped, links as `label (url)`, list items as `- item` (`1. item`), table rows
 * as cells separated by ` | `, code blocks indented by four spaces, paragraphs separated by a blank line.
 * Parsed with markdown-it (CommonMark + tables), so anything it accepts is handled.
 */
export function markdownToText(markdown: string): string {
  const out: string[] = [];
  const lists: { ordered: boolean; next: number }[] = [];
  let row: string[] | undefined;
  for (const token of parser.parse(markdown, {})) {
    switch (token.type) {
      case 'inline': {
        const text = inlineText(token.children ?? []);
        if (row) row.push(text);
        else out.push(text);
        break;
      }
      case 'list_item_open': {
        const list = lists[lists.length - 1];
        const indent = '  '.repeat(lists.length - 1);
        out.push(`${indent}${list?.ordered ? `${list.next++}. ` : '- '}`);
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        if (lists.length) out.push('\n');
        lists.push({ ordered: token.type === 'ordered_list_open', next: Number(token.attrGet('start') ?? 1) });
        break;
      case 'bullet_list_close':
      case 'ordered_list_close':
        lists.pop();
        if (!lists.length) out.push('\n');
        break;
      case 'paragraph_close':
        out.push(lists.length ? '\n' : '\n\n');
        break;
      case 'heading_close':
        out.push('\n\n');
        break;
      case 'tr_open':
        row = [];
        break;
      case 'tr_close':
        out.push((row ?? []).join(' | ') + '\n');
        row = undefined;
        break;
      case 'table_close':
        out.push('\n');
        break;
      case 'fence':
      case 'code_block':
        out.push(token.content.replace(/\n$/, '').split('\n').map((l) => `    ${l}`).join('\n') + '\n\n');
        break;
      case 'hr':
        out.push('\n');
        break;
      case 'html_block':
        out.push(token.content.replace(/<[^>]*>/g, ''));
        break;
      default:
        break;
    }
  }
  return out.join('').replace(/\n{3,}/g, '\n\n').trim();
}

function inlineText(children: readonly Token[]): string {
  let text = '';
  const hrefs: string[] = [];
  for (const t of children) {
    if (t.type === 'text' || t.type === 'code_inline') text += t.content;
    else if (t.type === 'softbreak') text += '\n';
    else if (t.type === 'hardbreak') text += '\n';
    else if (t.type === 'link_open') hrefs.push(t.attrGet('href') ?? '');
    else if (t.type === 'link_close') {
      const href = hrefs.pop();
      if (href && !text.endsWith(href)) text += ` (${href})`;
    } else if (t.type === 'image') text += t.content;
  }
  return text;
}
