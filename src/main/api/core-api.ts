import type { CoreEvent } from '../../shared/events.js';
import type { AppInfo, CoreHandlers, InvokeResult } from '../../shared/contract.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { McpCredentialStore } from '../mcp/oauth/credential-store.js';
import type { SessionStore } from '../store/store-api.js';
import { invokeHandler } from './invoke.js';
import type { SettingsAccess } from './settings-access.js';
import { createAppInfoHandlers, uploadLimitBytes } from './app-info-handlers.js';
import { createEventWindowHandlers } from './event-window-handlers.js';
import { createExportHandlers } from './export-handlers.js';
import { createLlmHandlers } from './llm-handlers.js';
import { createMcpHandlers } from './mcp-handlers.js';
import { createSandboxHandlers } from './sandbox-handlers.js';
import { createSessionHandlers, type SessionRunner } from './session-handlers.js';
import { createSettingsHandlers } from './settings-handlers.js';
import { createWorkspaceHandlers } from './workspace-handlers.js';
import { createUploadHandlers } from './upload-handlers.js';
import { createWorkspaceFolderHandlers } from './workspace-folder-handlers.js';
import { UploadStaging } from '../workspace/upload-staging.js';

export type { SessionRunner } from './session-handlers.js';

export interface CoreApiOptions {
  sessions: SessionRunner;
  store: SessionStore;
  dataDir: string;
  shell: AppInfo['shell'];
  version: string;
  settings: SettingsAccess;
  /** the settings runs use (saved ones plus env overrides); the saved ones when unset */
  runSettings?: () => AppSettings;
  /** the desktop shell opens files with the system's default application; absent in web mode */
  openPath?: (path: string) => Promise<void>;
  /** the desktop shell's folder dialog for a session's workspace; absent in web mode */
  pickFolder?: () => Promise<string | undefined>;
  /** remote MCP servers' OAuth tokens, for signing in from the settings screen */
  mcpCredentials?: McpCredentialStore;
  /** the desktop shell relabels its menu in the UI's language */
  onUiLanguage?: (language: 'en' | 'zh') => void;
}

export interface CoreApi {
  handlers: CoreHandlers;
  /** validates and runs one request; never throws */
  invoke(name: unknown, payload: unknown): Promise<InvokeResult<unknown>>;
  /** every stored event of every session, live */
  onEvent(listener: (event: CoreEvent) => void): () => void;
  /** closes what the API itself opened (the settings screen's MCP connections) */
  close(): Promise<void>;
}

/** The handlers of every request in the contract, shared by the Electron shell and the web server. */
export function createCoreApi(options: CoreApiOptions): CoreApi {
  const { sessions, store, dataDir, settings } = options;
  const runSettings = options.runSettings ?? settings.read;
  const mcp = createMcpHandlers({ dataDir, settings, mcpCredentials: options.mcpCredentials });
  const uploads = new UploadStaging(dataDir, () => uploadLimitBytes(runSettings()));

  // typed as the whole contract: a request no module answers fails to compile here
  const handlers: CoreHandlers = {
    ...createSessionHandlers({ sessions, store, dataDir, sandboxSettings: () => runSettings().sandbox, uploads }),
    ...createEventWindowHandlers({
      store,
      isRunning: (sessionId) => sessions.isRunning(sessionId),
      settleDeadRun: (sessionId) => {
        const session = store.getSession(sessionId);
        if (session) sessions.withLiveStatus(session);
      },
    }),
    ...createExportHandlers({ store, settings }),
    ...createSettingsHandlers({ settings }),
    ...createAppInfoHandlers({
      sessions,
      dataDir,
      shell: options.shell,
      version: options.version,
      runSettings,
      onUiLanguage: options.onUiLanguage,
    }),
    ...createLlmHandlers({ settings }),
    ...mcp.handlers,
    ...createSandboxHandlers({ settings }),
    ...createWorkspaceHandlers({ store, openPath: options.openPath, uploads }),
    ...createUploadHandlers({ uploads }),
    ...createWorkspaceFolderHandlers({ store, dataDir, pickFolder: options.pickFolder }),
  };

  return {
    handlers,
    invoke: (name, payload) => invokeHandler(handlers, name, payload),
    onEvent: (listener) => sessions.subscribe(listener),
    close: async () => {
      uploads.close();
      await mcp.close();
    },
  };
}
