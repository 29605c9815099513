import { join } from 'node:path';
import type { CoreHandlers } from '../../shared/contract.js';
import type { SessionStore } from '../store/store-api.js';
import type { SettingsAccess } from './settings-access.js';
import { CoreApiError } from './invoke.js';
import { testConnection } from '../llm/connection.js';
import { restoreMaskedSecrets, maskSecrets } from '../store/settings-secrets.js';
import { McpManager } from '../mcp/mcp-manager.js';
import type { McpCredentialStore } from '../mcp/oauth/credential-store.js';
import { McpSignIns } from '../mcp/oauth/sign-in-jobs.js';
import { parseMcpConfigFile } from '../mcp/config-file.js';
import { chooseEngine } from '../sandbox/engine-choice.js';
import { dockerClient } from '../sandbox/engine.js';
import { sandboxStatus } from '../sandbox/sandbox-admin.js';
import { SandboxBuildJobs } from './sandbox-build-job.js';
import {
  confinedPath,
  listWorkspace,
  readWorkspaceFile,
  saveUploads,
  WorkspaceFileError,
} from '../workspace/workspace-files.js';

/** how long the MCP status request waits for servers still connecting before answering with what it has */
const MCP_STATUS_WAIT_MS = 8_000;
/** the settings screen polls every few seconds; this long without a poll, its MCP connections are closed */
const INSPECTOR_IDLE_MS = 60_000;

type AppHandlerNames =
  | 'testLlm'
  | 'mcpStatus'
  | 'importMcpConfig'
  | 'mcpSignIn'
  | 'mcpSignInCancel'
  | 'mcpSignOut'
  | 'sandboxStatus'
  | 'buildSandbox'
  | 'listWorkspace'
  | 'readWorkspaceFile'
  | 'uploadFiles'
  | 'openWorkspaceFile';

export interface AppHandlers {
  handlers: Pick<CoreHandlers, AppHandlerNames>;
  close(): Promise<void>;
}

function asCoreError(error: unknown): never {
  if (error instanceof WorkspaceFileError) throw new CoreApiError(error.code, error.message, error.hint);
  throw error;
}

/** Handlers of the settings, sandbox and workspace screens. */
export function createAppHandlers(options: {
  store: SessionStore;
  dataDir: string;
  settings: SettingsAccess;
  openPath?: (path: string) => Promise<void>;
  /** remote MCP servers' OAuth tokens; without it the settings screen cannot sign in */
  mcpCredentials?: McpCredentialStore;
}): AppHandlers {
  const { store, dataDir, settings, openPath, mcpCredentials } = options;
  // the settings screen's own MCP connections: status and tool lists without a session
  let inspector: McpManager | undefined;
  let inspectorIdle: ReturnType<typeof setTimeout> | undefined;
  const closeInspector = async () => {
    clearTimeout(inspectorIdle);
    const closing = inspector;
    inspector = undefined;
    await closing?.close();
  };
  const builds = new SandboxBuildJobs();
  // a sign-in or sign-out changes what the server answers: its inspector connection starts over at the next poll
  const signIns = mcpCredentials ? new McpSignIns(mcpCredentials, () => void closeInspector()) : undefined;
  const requireSignIns = (): McpSignIns => {
    if (!signIns) throw new CoreApiError('unavailable', 'Signing in to MCP servers is not available here.');
    return signIns;
  };
  const remoteServer = (name: string) => {
    const config = settings.read().mcp.servers[name];
    if (!config) throw new CoreApiError('not_found', `No MCP server "${name}".`);
    if (config.type === 'stdio')
      throw new CoreApiError('invalid_request', `MCP server "${name}" has nothing to sign in to.`);
    return config;
  };

  const workspaceOf = (sessionId: string): string => {
    const session = store.getSession(sessionId);
    if (!session) throw new CoreApiError('not_found', `No session ${sessionId}.`);
    return session.workspace;
  };

  const handlers: AppHandlers['handlers'] = {
    testLlm: async ({ name, config }) => {
      // a key left masked in the form is the stored one
      const stored = settings.read();
      const restored = name ? restoreMaskedSecrets({ llms: { [name]: config } }, stored).llms[name]! : config;
      const started = Date.now();
      const report = await testConnection(restored, { signal: AbortSignal.timeout(30_000) });
      return { ...report, elapsedMs: Date.now() - started };
    },
    mcpStatus: async () => {
      const manager = (inspector ??= new McpManager(join(dataDir, 'logs'), { credentials: mcpCredentials }));
      clearTimeout(inspectorIdle);
      inspectorIdle = setTimeout(() => void closeInspector(), INSPECTOR_IDLE_MS);
      inspectorIdle.unref?.();
      const applying = manager.apply(settings.read().mcp);
      let waited: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([applying, new Promise((resolve) => (waited = setTimeout(resolve, MCP_STATUS_WAIT_MS)))]);
      clearTimeout(waited);
      return manager.statuses().map((status) => ({
        name: status.name,
        type: status.type,
        status: status.status,
        ...(status.error ? { error: status.error } : {}),
        tools: status.tools.map((tool) => ({ name: tool.name, description: tool.description })),
        prompts: status.prompts.length,
        resources: status.resources.length,
        ...(status.auth ? { auth: { ...status.auth, signIn: signIns?.progress(status.name) } } : {}),
      }));
    },
    mcpSignIn: ({ name }) => {
      requireSignIns().start(name, remoteServer(name));
      return { ok: true };
    },
    mcpSignInCancel: ({ name }) => {
      requireSignIns().cancel(name);
      return { ok: true };
    },
    mcpSignOut: async ({ name }) => {
      remoteServer(name);
      await requireSignIns().signOut(name);
      return { ok: true };
    },
    importMcpConfig: ({ text }) => {
      let servers;
      try {
        servers = parseMcpConfigFile(text);
      } catch (error) {
        throw new CoreApiError('invalid_config', (error as Error).message);
      }
      // saved here, not by the renderer: it only ever sees the imported secrets masked
      const current = settings.read();
      settings.write({ ...current, mcp: { ...current.mcp, servers: { ...current.mcp.servers, ...servers } } });
      return { servers: maskSecrets({ mcp: { servers } }).mcp.servers };
    },
    sandboxStatus: async () => {
      const { image, engine, workspace } = settings.read().sandbox;
      try {
        const choice = chooseEngine(engine);
        const status = await sandboxStatus(dockerClient(choice), image, choice, workspace);
        return {
          engine: { reachable: status.engine.reachable, version: status.engine.version, error: status.engine.error },
          image: { name: status.image.name, present: status.image.present, sizeMb: status.image.sizeMb },
          build: builds.current(),
        };
      } catch (error) {
        // a context that does not exist, an engine that fails mid-answer
        return {
          engine: { reachable: false, error: (error as Error).message },
          image: { name: image, present: false },
          build: builds.current(),
        };
      }
    },
    buildSandbox: ({ method }) => builds.start(method, settings.read().sandbox.image, settings.read().sandbox.engine),
    listWorkspace: async ({ sessionId }) => {
      const root = workspaceOf(sessionId);
      return { root, ...(await listWorkspace(root)) };
    },
    readWorkspaceFile: ({ sessionId, path }) => readWorkspaceFile(workspaceOf(sessionId), path).catch(asCoreError),
    openWorkspaceFile: async ({ sessionId, path }) => {
      if (!openPath) {
        throw new CoreApiError(
          'not_supported',
          'Opening files with the system works in the desktop app only.',
          'Download the file instead.',
        );
      }
      const target = await confinedPath(workspaceOf(sessionId), path).catch(asCoreError);
      await openPath(target);
      return { ok: true };
    },
    uploadFiles: ({ sessionId, files }) => {
      try {
        return { paths: saveUploads(workspaceOf(sessionId), files) };
      } catch (error) {
        return asCoreError(error);
      }
    },
  };

  return {
    handlers,
    close: async () => {
      signIns?.close();
      await closeInspector();
    },
  };
}
