import { join } from 'node:path';
import { resolveDataDir } from '../../store/data-dir.js';
import { openStore } from '../../store/store.js';
import { SessionService } from '../../session/session-service.js';
import { createLlm } from '../../llm/client.js';
import { pickTools } from '../../tool/builtin-tools.js';
import { McpManager } from '../../mcp/mcp-manager.js';
import { cliSettings } from '../cli-context.js';
import type { A2aDeps } from './a2a.js';
import type { McpServerDeps } from './mcp-server.js';

/** The sandboxed tools `manus mcp-server` offers (those that exist), besides run_task. */
export const MCP_SERVER_TOOL_NAMES = ['bash', 'python_execute', 'str_replace_editor', 'browser_use', 'web_search'];

/**
 * The real wiring of `manus mcp`, `manus mcp-server` and `manus a2a`: the app's store and settings (env overrides
 * applied), and a session service whose sessions share one process-wide set of MCP connections.
 */
export const cliServeDeps: McpServerDeps & A2aDeps = {
  resolveDataDir,
  openStore,
  loadSettings: (data) => cliSettings({ ...data, close: () => undefined }, {}),
  createTaskService: (data, settings) => {
    const mcp = new McpManager(join(data.dataDir, 'logs'));
    const connected = mcp.apply(settings.mcp);
    const service = new SessionService({
      store: data.store,
      dataDir: data.dataDir,
      settings: () => settings,
      llmFactory: createLlm,
      // nobody watches a served run: the agent decides instead of asking
      humanAvailable: false,
      extraTools: () => mcp.mcpTools(),
    });
    return {
      start: (request) => service.start(request),
      cancel: (sessionId) => service.cancel(sessionId),
      subscribe: (listener, sessionId) => service.subscribe(listener, sessionId),
      isRunning: (sessionId) => service.isRunning(sessionId),
      close: async () => {
        await service.close();
        await connected.catch(() => undefined);
        await mcp.close();
      },
    };
  },
  serverTools: () => pickTools(MCP_SERVER_TOOL_NAMES),
};
