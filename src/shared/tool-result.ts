import { z } from 'zod';

/** Which view a tool call opens into: each tool declares its kind; MCP tools and anything else get the generic view. */
export const TOOL_KINDS = ['python', 'bash', 'file', 'browser', 'search', 'mcp', 'plan', 'generic'] as const;
export const ToolKindSchema = z.enum(TOOL_KINDS);
export type ToolKind = z.infer<typeof ToolKindSchema>;

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

/**
 * The view of a tool event recorded before tools declared their kind: the built-in tools of that time by their exact
 * names. Their search results carry no structured data, so they show as text.
 */
const KINDS_OF_RECORDED_TOOLS: Readonly<Record<string, ToolKind>> = {
  python_execute: 'python',
  bash: 'bash',
  str_replace_editor: 'file',
  browser_use: 'browser',
};

export function kindOfRecordedTool(name: string): ToolKind {
  return KINDS_OF_RECORDED_TOOLS[name] ?? 'generic';
}
