/**
 * Which view a tool call opens into: each tool declares its kind; MCP tools and anything else get the generic view.
 * No zod here: the renderer's first screen reads these without loading the schemas.
 */
export const TOOL_KINDS = ['python', 'bash', 'file', 'browser', 'search', 'mcp', 'plan', 'generic'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

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
