import type { McpSettings } from '../../shared/settings/mcp-settings.js';
import { mcpToolName } from './tool-name.js';

/**
 * The per-tool choice the user made for an MCP tool (settings.mcp.servers.X.toolApproval), by the name the model
 * calls it; undefined when the tool is not an MCP tool or has no choice, so the global policy applies.
 */
export function mcpToolApproval(settings: McpSettings, modelToolName: string): 'auto' | 'ask' | undefined {
  for (const [server, config] of Object.entries(settings.servers)) {
    for (const [tool, choice] of Object.entries(config.toolApproval)) {
      if (mcpToolName(server, tool) === modelToolName) return choice;
    }
  }
  return undefined;
}
