import type { NoticeCode } from '../../shared/notice-codes.js';

/** Codes handed to `onNotice`: things about a request the user should see (as warning events). */
export const LLM_NOTICE_CODES = [
  /** a failed attempt is retried after a wait; a streamed reply starts over */
  'retrying',
  /** images were left out for a model that cannot take them */
  'image_dropped',
  /** the model has no tool calling: tools go in the prompt, calls are read from JSON in the reply */
  'no_tool_support',
  /** the model wrote its tool calls as text (tags or JSON) although the tools API was offered; they were read */
  'text_tool_calls',
  /** old tool outputs were shortened or old turns left out to fit the context window */
  'context_fitted',
] as const satisfies readonly NoticeCode[];
export type LlmNoticeCode = (typeof LLM_NOTICE_CODES)[number];
