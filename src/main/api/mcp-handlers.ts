import { join } from 'node:path';
import type { CoreHandlers } from '../../shared/contract.js';
import { McpManager } from '../mcp/mcp-manager.js';
import type { McpCredentialStore } from '../mcp/oauth/credential-store.js';
import { McpSignIns } from '../mcp/oauth/sign-in-jobs.js';
import { parseMcpConfigFile } from '../mcp/config-file.js';
import { confirmLaunches, LaunchChangedError } from '../mcp/launch-confirmation.js';
import { maskSecrets } from '../store/settings-secrets.js';
import { CoreApiError } from './invoke.js';
import type { SettingsAccess } from './settings-access.js';
import { outboundFetchWith } from '../net/guarded-fetch.js';

/** how long the MCP status request waits for servers still connecting before answering with what it has */
const MCP_STATUS_WAIT_MS = 8_000;
/** the settings screen polls every few seconds; this long without a poll, its MCP connections are closed */
const INSPECTOR_IDLE_MS = 60_000;

export interface McpHandlers {
  handlers: Pick<
    CoreHandlers,
    'mcpStatus' | 'importMcpConfig' | 'confirmMcpServer' | 'mcpSignIn' | 'mcpSignInCancel' | 'mcpSignOut'
  >;
  /** closes the settings screen's MCP connections and stops sign-ins under way */
  close(): Promise<void>;
}

/** The MCP settings screen: server status and tools, config import, OAuth sign-in and sign-out. */
export function createMcpHandlers(options: {
  dataDir: string;
  settings: SettingsAccess;
  /** remote MCP servers' OAuth tokens; without it the settings screen cannot sign in */
  mcpCredentials?: McpCredentialStore;
}): McpHandlers {
  const { dataDir, settings, mcpCredentials } = options;
  const outbound = outboundFetchWith(() => settings.read().browser.allowPrivateNetwork);
  // the settings screen's own MCP connections: status and tool lists without a session
  let inspector: McpManager | undefined;
  let inspectorIdle: ReturnType<typeof setTimeout> | undefined;
  const closeInspector = async () => {
    clearTimeout(inspectorIdle);
    const closing = inspector;
    inspector = undefined;
    await closing?.close();
  };
  // a sign-in or sign-out changes what the server answers: its inspector connection starts over at the next poll
  const signIns = mcpCredentials
    ? new McpSignIns(mcpCredentials, () => void closeInspector(), undefined, outbound)
    : undefined;
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

  const handlers: McpHandlers['handlers'] = {
    mcpStatus: async () => {
      const manager = (inspector ??= new McpManager(join(dataDir, 'logs'), { credentials: mcpCredentials, outbound }));
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
      let imported;
      try {
        imported = parseMcpConfigFile(text);
      } catch (error) {
        throw new CoreApiError('invalid_config', (error as Error).message);
      }
      const { servers, skipped } = imported;
      if (Object.keys(servers).length === 0 && skipped.length > 0) {
        const reasons = skipped.map(({ name, reason }) => `${JSON.stringify(name)}: ${reason}`).join('\n');
        throw new CoreApiError('invalid_config', `Nothing imported, every entry is invalid:\n${reasons}`);
      }
      // saved here, not by the renderer: it only ever sees the imported secrets masked
      const current = settings.read();
      settings.write({ ...current, mcp: { ...current.mcp, servers: { ...current.mcp.servers, ...servers } } });
      return { servers: maskSecrets({ mcp: { servers } }).mcp.servers, skipped };
    },
    confirmMcpServer: ({ name, launch }) => {
      const current = settings.read();
      if (!current.mcp.servers[name]) throw new CoreApiError('not_found', `No MCP server "${name}".`);
      try {
        settings.write({ ...current, mcp: confirmLaunches(current.mcp, { [name]: launch }) });
      } catch (error) {
        if (error instanceof LaunchChangedError) throw new CoreApiError('conflict', error.message);
        throw error;
      }
      return { ok: true };
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
