import type { McpServerConfig, McpSettings, StdioServerConfig } from '../../shared/settings/mcp-settings.js';
import { sameLaunch, stdioLaunchOf, type StdioLaunch } from '../../shared/settings/mcp-launch.js';

export class LaunchChangedError extends Error {
  constructor(server: string) {
    super(`The command of MCP server "${server}" is not the one that was shown (it changed); nothing was confirmed.`);
    this.name = 'LaunchChangedError';
  }
}

/** A stdio server whose command nobody has confirmed: it is not started (see `UnconfirmedCommandError`). */
export function isUnconfirmed(config: McpServerConfig | undefined): config is StdioServerConfig {
  return config?.type === 'stdio' && config.unconfirmed === true;
}

/** Marks each named server confirmed, but only while it still runs the launch the person was shown. */
export function confirmLaunches(current: McpSettings, shown: Record<string, StdioLaunch>): McpSettings {
  const servers = { ...current.servers };
  for (const [name, launch] of Object.entries(shown)) {
    const config = servers[name];
    if (config?.type !== 'stdio' || !sameLaunch(stdioLaunchOf(config), launch)) throw new LaunchChangedError(name);
    const { unconfirmed: _unconfirmed, ...confirmed } = config;
    servers[name] = confirmed;
  }
  return { ...current, servers };
}
