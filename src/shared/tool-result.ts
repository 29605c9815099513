import { z } from 'zod';
import { TOOL_KINDS } from './tool-kind.js';

export const ToolKindSchema = z.enum(TOOL_KINDS);

export const SearchHitSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
});

export const SearchResultDataSchema = z.object({
  kind: z.literal('search'),
  results: z.array(SearchHitSchema),
});

/** The address of the page the browser shows after the action (its screenshot is the event's image). */
export const BrowserResultDataSchema = z.object({
  kind: z.literal('browser'),
  url: z.string(),
});

/**
 * The structured part of a tool's result, for its view; the text the model reads stays in `output`.
 * Only what a view renders and cannot take from the call's arguments is here.
 */
export const ToolResultDataSchema = z.discriminatedUnion('kind', [SearchResultDataSchema, BrowserResultDataSchema]);
export type ToolResultData = z.infer<typeof ToolResultDataSchema>;
