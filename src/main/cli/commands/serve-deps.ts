import { createAppCore, runSettingsFor } from '../../app/app-core.js';
import { pickTools } from '../../tool/builtin-tools.js';
import type { A2aDeps } from './a2a-action.js';
import type { McpServerDeps } from './mcp-server-action.js';
import { openStore } from '../../store/store.js';
import { cliStoreDeps } from './store-deps.js';

/** The sandboxed tools `manus mcp-server` offers (those that exist), besides run_task. */
export const MCP_SERVER_TOOL_NAMES = ['bash', 'python_execute', 'str_replace_editor', 'browser_use', 'web_search'];

/**
 * The real wiring of `manus mcp`, `manus mcp-server` and `manus a2a`: the app's store, saved settings (env overrides
 * applied) and the app core every host runs (flows, MCP per session connected before the turn, live settings).
 */
export const cliServeDeps: McpServerDeps & A2aDeps = {
  ...cliStoreDeps,
  // they run task after task: the events are written by the store's writer thread, started with the first of them
  openStore: (dataDir) => openStore(dataDir, { writeEventsInBackground: true }),
  loadSettings: (data, environment) => runSettingsFor({ store: data.store, secrets: data.secrets, ...environment }),
  createTaskService: (data, options) => {
    // an MCP caller cannot be asked, so the agent decides; an A2A client answers `input-required`
    const core = createAppCore({
      ...data,
      ...options?.environment,
      humanAvailable: options?.clientAnswers ?? false,
    });
    return {
      start: (request) => {
        const started = core.service.start(request);
        // a served process runs task after task: each session's sandbox, browser and MCP servers go when it ends
        started.done.then(
          () => core.service.release(started.sessionId),
          () => undefined,
        );
        return started;
      },
      cancel: (sessionId) => core.service.cancel(sessionId),
      subscribe: (listener, sessionId) => core.service.subscribe(listener, sessionId),
      isRunning: (sessionId) => core.service.isRunning(sessionId),
      answer: (sessionId, askId, answer) => core.service.answer(sessionId, askId, answer),
      close: () => core.close(),
    };
  },
  serverTools: () => pickTools(MCP_SERVER_TOOL_NAMES),
};
