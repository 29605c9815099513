import type { Command } from 'commander';
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import type { SessionStore } from '../../store/store-api.js';
import type { SqliteDatabase } from '../../store/database.js';
import { startA2aServer } from '../../a2a/a2a-server.js';
import { readSettings } from '../../config/settings-store.js';
import { outboundFetchWith } from '../../net/guarded-fetch.js';
import { untilShutdown, withData } from './command-deps.js';
import { resolveDeps, type DepsSource } from './deps-source.js';
import type { AgentServeDeps } from './mcp-server-action.js';
import { announceAccess, serverToken } from './server-access.js';
import { A2A_TOKEN_ENV, type ListenOptions } from './server-options.js';
import type { RunEnvironmentOptions } from '../turn-options.js';
import { runEnvironmentOf } from '../run-environment.js';
import { printErr, printOut } from '../output/terminal-print.js';

/** The A2A task table lives in the app's database, so the store must expose its SQLite handle. */
export type A2aDeps = AgentServeDeps<SessionStore & { readonly db: SqliteDatabase }>;

export interface A2aOptions extends ListenOptions, RunEnvironmentOptions {
  token?: string;
}

/** `manus a2a`: serves until Ctrl-C. */
export async function serveA2a(source: DepsSource<A2aDeps>, options: A2aOptions, command: Command): Promise<void> {
  const deps = await resolveDeps(source);
  const { token, generated } = serverToken(options.token, A2A_TOKEN_ENV);
  await withData(deps, command, async (data) => {
    const service = deps.createTaskService(data, { clientAnswers: true, environment: runEnvironmentOf(options) });
    try {
      const server = await startA2aServer({
        service,
        db: data.store.db,
        port: options.port,
        host: options.host,
        allowedHosts: options.allowHost,
        token,
        // push notifications follow the saved browser.allowPrivateNetwork as it is at each push
        outbound: outboundFetchWith(() => readSettings(data.store, data.secrets).settings.browser.allowPrivateNetwork),
        onPushFailure: (url, error) => printErr.line`Push notification to ${url} not sent: ${error.message}`,
      });
      // stderr, so the token never ends up in a pipe meant for data
      announceAccess((line) => printErr.line`${line}`, {
        command: 'manus a2a',
        host: options.host,
        token,
        generated,
        envName: A2A_TOKEN_ENV,
      });
      printOut.line`Manus A2A agent on ${server.url} (card: ${server.url}/${AGENT_CARD_PATH})`;
      if (server.recoveredTaskIds.length > 0)
        printOut.line`${server.recoveredTaskIds.length} task(s) left unfinished by the last run were marked failed.`;
      await untilShutdown();
      await server.close();
    } finally {
      await service.close();
    }
  });
}
