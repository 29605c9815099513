import { z } from 'zod';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { defineTool, emitToolProgress, type AnyTool } from '../tool/tool.js';
import { mcpToolName } from './tool-name.js';
import type { McpServerConnection } from './server-connection.js';

const McpArgumentsSchema = z.record(z.string(), z.unknown());

/** The agent-facing tool for one tool of one MCP server; the server validates the arguments. */
export function mcpToolFor(
  connection: McpServerConnection,
  tool: McpTool,
  name = mcpToolName(connection.name, tool.name),
): AnyTool {
  const description = tool.description || tool.annotations?.title || tool.title || tool.name;
  return defineTool({
    name,
    kind: 'mcp',
    server: connection.name,
    description: `[MCP ${connection.name}] ${description}`,
    parameters: McpArgumentsSchema,
    inputJsonSchema: tool.inputSchema as Record<string, unknown>,
    risk: tool.annotations?.readOnlyHint ? 'read' : 'execute',
    execute: (args, ctx) =>
      connection.callTool(tool.name, args, {
        signal: ctx.signal,
        // one line each: the card appends progress as it comes
        onProgress: (line) => emitToolProgress(ctx, name, args, `${line}\n`),
      }),
  }) as AnyTool;
}
