import removeMarkdown from 'remove-markdown';
import type { CoreEvent } from '../../shared/events.js';

/** a text without any of these characters has no Markdown to take out (most short messages): it is indexed as is */
const MARKDOWN_SIGNS = /[*_`#[\]|>~!<]/;
/** the row under a table's header (| --- | :---: |) */
const TABLE_RULE = /^[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t]*$/gm;
const TABLE_PIPES = /[ \t]*\|[ \t]*/g;

/** The words a person reads in a Markdown text: no `**`, `#`, link targets or table pipes for search to show. */
export function markdownToPlainText(markdown: string): string {
  if (!MARKDOWN_SIGNS.test(markdown)) return markdown;
  return removeMarkdown(markdown, { gfm: true, useImgAltText: true })
    .replace(TABLE_RULE, '')
    .replace(TABLE_PIPES, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Whether full-text search indexes an event: whole messages (not streamed deltas) and the person's questions and
 * answers (ask_human). The store queues these as it writes them (`EventRowWriter`); migration 7 queued the history.
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
