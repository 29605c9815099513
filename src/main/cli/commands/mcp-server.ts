import { Command, Option } from 'commander';
import type { DepsSource } from './deps-source.js';
import { addRunEnvironmentOptions } from '../turn-options.js';
import type { McpServerDeps, McpServerOptions } from './mcp-server-action.js';
import { MCP_TOKEN_ENV, addListenOptions, addTokenOption } from './server-options.js';

const DEFAULT_MCP_PORT = 8766;

/** `manus mcp-server`: the agent's tools and `run_task` for any MCP client (Claude Desktop, Cursor, other agents). */
export function mcpServerCommand(deps: DepsSource<McpServerDeps>): Command {
  const mcpServer = new Command('mcp-server')
    .description('serve the Manus tools and a run_task tool over MCP (stdio, or HTTP on 127.0.0.1 with a token)')
    .addOption(
      new Option('--transport <transport>', 'how clients connect').choices(['stdio', 'http']).default('stdio'),
    );
  addListenOptions(mcpServer, DEFAULT_MCP_PORT);
  addTokenOption(mcpServer, MCP_TOKEN_ENV);
  return addRunEnvironmentOptions(mcpServer)
    .option('--workspace <dir>', 'folder the tools work in (default: a new one in the data folder)')
    .action(async (options: McpServerOptions, command: Command) =>
      (await import('./mcp-server-action.js')).serveMcp(deps, options, command),
    );
}
