import TurndownService from 'turndown';

/** HTML characters converted per Markdown character wanted; more only costs time (turndown takes ~3 s a megabyte). */
const HTML_PER_MARKDOWN_CHAR = 10;

/** markup that carries no readable text */
const DROPPED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'head', 'title']);

let service: TurndownService | undefined;

function turndown(): TurndownService {
  if (service) return service;
  service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.remove((node) => DROPPED_TAGS.has(node.nodeName.toLowerCase()));
  return service;
}

/** Readable Markdown of an HTML document or fragment, blank runs collapsed. */
export function htmlToMarkdown(html: string): string {
  return turndown()
    .turndown(html)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Text cut to `limit` characters with a note saying how much was left out. */
export function clipText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n\n[… ${text.length - limit} more characters cut]`;
}

/** Markdown of at most `limit` characters; only as much HTML is converted as can fill it. */
export function markdownWithin(html: string, limit: number): string {
  const budget = limit * HTML_PER_MARKDOWN_CHAR;
  if (html.length <= budget) return clipText(htmlToMarkdown(html), limit);
  const markdown = clipText(htmlToMarkdown(html.slice(0, budget)), limit);
  return `${markdown}\n\n[only the first ${budget} of ${html.length} characters of HTML were read]`;
}
