import { existsSync } from 'node:fs';
import { credentialStoreIn, type McpCredentialStore } from '../../mcp/oauth/credential-store.js';
import { join } from 'node:path';
import type { Command } from 'commander';
import { createCoreApi, type SessionRunner } from '../../api/core-api.js';
import { storedSettings, type SettingsAccess } from '../../api/settings-access.js';
import type { SessionStore } from '../../store/store-api.js';
import type { AppSettings } from '../../../shared/settings/app-settings.js';
import { openCliContext } from '../cli-context.js';
import { createCliCore } from '../cli-core.js';
import { startWebServer } from '../../server/web-server.js';
import { findRendererDir } from '../../server/renderer-dir.js';
import { exposureWarning } from '../../server/server-address.js';
import { SERVE_TOKEN_ENV, type ListenOptions } from './server-options.js';
import { serverToken } from './server-access.js';
import { serveTokenPath, storedServeToken } from '../../server/stored-token.js';
import type { RunEnvironmentOptions } from '../turn-options.js';
import { runEnvironmentOf, type RunEnvironment } from '../run-environment.js';
import { printOut } from '../output/terminal-print.js';

export interface ServeOptions extends ListenOptions, RunEnvironmentOptions {
  token?: string;
  /** replace the token kept in the data folder */
  newToken?: boolean;
}

/** The core over the CLI's data folder, opened by the CLI and closed when serving stops. */
export interface ServedCore {
  store: SessionStore;
  sessions: SessionRunner;
  dataDir: string;
  settings: SettingsAccess;
  /** the settings runs use: saved ones plus MANUS_LLM_* overrides */
  runSettings: () => AppSettings;
  /** remote MCP servers' OAuth tokens, for signing in from the settings screen */
  mcpCredentials?: McpCredentialStore;
  close(): Promise<void>;
}

/** What a served core is opened with: the data folder, and the model and sandbox flags of `manus serve`. */
export interface ServedCoreOptions {
  dataDir?: string;
  environment?: RunEnvironment;
}

/** The CLI's core for serving: its data folder and store, a session service whose questions the page answers. */
export function openServedCore(options: ServedCoreOptions): ServedCore {
  const context = openCliContext(options);
  const core = createCliCore(context, { ...options.environment, humanAvailable: true, hearOtherProcesses: true });
  return {
    store: context.store,
    sessions: core.service,
    dataDir: context.dataDir,
    settings: storedSettings(context.store, context.secrets),
    runSettings: core.runSettings,
    mcpCredentials: credentialStoreIn(context.dataDir, context.secrets),
    close: async () => {
      await core.close();
      context.close();
    },
  };
}

export interface ServeDeps {
  version: string;
  /** the CLI's core by default (openServedCore) */
  openCore?: (options: ServedCoreOptions) => Promise<ServedCore> | ServedCore;
  print?: (line: string) => void;
  /** resolves when the server should stop; SIGINT/SIGTERM by default */
  untilStopped?: () => Promise<void>;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** `manus serve`: serves until Ctrl-C (or `deps.untilStopped`). */
export async function serveApp(deps: ServeDeps, options: ServeOptions, command: Command): Promise<void> {
  const print = deps.print ?? ((line: string) => printOut.line`${line}`);
  const globals = command.optsWithGlobals<{ dataDir?: string }>();
  const rendererDir = findRendererDir();
  if (!existsSync(join(rendererDir, 'index.html'))) {
    print(`warning: the UI is not built (${rendererDir}); run \`npm run build\` first, or use \`npm run web\`.`);
  }
  const core = await (deps.openCore ?? openServedCore)({
    dataDir: globals.dataDir,
    environment: runEnvironmentOf(options),
  });
  const api = createCoreApi({
    sessions: core.sessions,
    store: core.store,
    dataDir: core.dataDir,
    settings: core.settings,
    runSettings: core.runSettings,
    mcpCredentials: core.mcpCredentials,
    shell: 'web',
    version: deps.version,
  });
  let server;
  let kept: boolean;
  try {
    // --token, else MANUS_SERVE_TOKEN, else the one kept in the data folder
    const access = serverToken(options.token, SERVE_TOKEN_ENV, process.env, () =>
      storedServeToken(core.dataDir, { rotate: options.newToken }),
    );
    kept = !options.token && !process.env[SERVE_TOKEN_ENV];
    server = await startWebServer({
      api,
      rendererDir,
      port: options.port,
      host: options.host,
      allowedHosts: options.allowHost,
      token: access.token,
    });
  } catch (error) {
    await api.close();
    await core.close();
    throw error;
  }
  const warning = exposureWarning(options.host, 'manus serve');
  if (warning) print(warning);
  print(`Manus is serving on ${server.url}`);
  print('Open that URL in a browser (the token in it is required). Press Ctrl+C to stop.');
  if (kept) {
    print(
      `The token is kept in ${serveTokenPath(core.dataDir)}, so pages stay open across restarts; \`manus serve --new-token\` replaces it.`,
    );
  }
  await (deps.untilStopped ?? untilSignal)();
  await server.close();
  await api.close();
  await core.close();
}
