import type { SessionStore } from '../store/store-api.js';
import type { SecretBox } from '../store/secrets.js';
import type { AnyTool } from '../tool/tool.js';
import type { McpSettings } from './mcp-settings.js';
import { readMcpSettings } from './mcp-settings-store.js';
import { McpManager } from './mcp-manager.js';

/** how often a long-running process re-reads the saved MCP settings (`manus mcp add` in another terminal) */
export const MCP_SETTINGS_POLL_MS = 2_000;

export interface ProcessMcp {
  /** every session's MCP tools right now */
  tools(): AnyTool[];
  /** resolves when the latest settings were applied (each server connected or failed, bounded by its timeout) */
  ready(): Promise<void>;
  manager: McpManager;
  close(): Promise<void>;
}

/**
 * One set of MCP connections shared by all sessions of a long-running process (`manus a2a`, `manus mcp-server`),
 * following the saved settings as they change: added, removed, enabled or disabled servers update the tool list.
 */
export function startProcessMcp(options: {
  logDir: string;
  initial: McpSettings;
  store: SessionStore;
  secrets: SecretBox;
  pollMs?: number;
}): ProcessMcp {
  const manager = new McpManager(options.logDir);
  let appliedText = JSON.stringify(options.initial);
  let applying = manager.apply(options.initial);
  const timer = setInterval(() => {
    let next: McpSettings;
    try {
      next = readMcpSettings(options.store, options.secrets);
    } catch {
      // settings half-written or unreadable right now: the next poll tries again
      return;
    }
    const nextText = JSON.stringify(next);
    if (nextText === appliedText) return;
    appliedText = nextText;
    applying = applying.then(() => manager.apply(next));
  }, options.pollMs ?? MCP_SETTINGS_POLL_MS);
  timer.unref();
  return {
    tools: () => manager.mcpTools(),
    ready: () => applying,
    manager,
    close: async () => {
      clearInterval(timer);
      await applying.catch(() => undefined);
      await manager.close();
    },
  };
}
