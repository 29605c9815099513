import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { CoreEvent } from '../../shared/events.js';

interface MarkdownNode {
  type: string;
  value?: string;
  alt?: string | null;
  children?: MarkdownNode[];
}

/** nodes whose text runs on with their neighbours'; every other node with children is a block, set on its own line */
const INLINE = new Set(['emphasis', 'strong', 'delete', 'link', 'linkReference', 'footnoteReference']);

function collectText(node: MarkdownNode, parts: string[]): void {
  if (node.value !== undefined && node.type !== 'html') parts.push(node.value);
  else if (node.alt) parts.push(node.alt);
  for (const child of node.children ?? []) {
    collectText(child, parts);
    // table cells and blocks end with a break so their last and next words do not run together
    if (child.children && !INLINE.has(child.type)) parts.push('\n');
  }
}

/** The words a person reads in a Markdown text: no `**`, `#`, link targets or table pipes for search to show. */
export function markdownToPlainText(markdown: string): string {
  const tree = fromMarkdown(markdown, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const parts: string[] = [];
  collectText(tree as MarkdownNode, parts);
  return parts
    .join('')
    .replace(/[ \t]*\n[\s]*/g, '\n')
    .trim();
}

/**
 * Whether full-text search indexes an event: whole messages (not streamed deltas) and the person's questions and
 * answers (ask_human). Mirrors the WHEN clauses of the `events_queue_message` and `events_queue_question` triggers.
 */
export function isSearchable(event: CoreEvent): boolean {
  if (event.type === 'message') return !event.delta;
  return event.type === 'ask' && event.kind === 'question' && ['waiting', 'answered'].includes(event.status);
}

/** The text search indexes of a searchable event: a question once when asked, its answer once when answered. */
export function searchableText(event: CoreEvent): string | undefined {
  if (!isSearchable(event)) return undefined;
  if (event.type === 'message') return markdownToPlainText(event.text);
  if (event.type !== 'ask') return undefined;
  return event.status === 'waiting' ? markdownToPlainText(event.question) : event.answer;
}
