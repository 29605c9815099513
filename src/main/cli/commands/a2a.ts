import { Command } from 'commander';
import { AGENT_CARD_PATH } from '@a2a-js/sdk';
import type { SessionStore } from '../../store/store-api.js';
import type { SqliteDatabase } from '../../store/database.js';
import { startA2aServer } from '../../a2a/a2a-server.js';
import { untilShutdown, withData } from './command-deps.js';
import type { AgentServeDeps } from './mcp-server.js';
import { addListenOptions, addTokenOption, announceAccess, serverToken, type ListenOptions } from './server-options.js';

const DEFAULT_A2A_PORT = 10000;
const TOKEN_ENV = 'MANUS_A2A_TOKEN';

/** The A2A task table lives in the app's database, so the store must expose its SQLite handle. */
export type A2aDeps = AgentServeDeps<SessionStore & { readonly db: SqliteDatabase }>;

/** `manus a2a`: the agent as an A2A server other agents can discover and hand tasks to. */
export function a2aCommand(deps: A2aDeps): Command {
  const a2a = new Command('a2a').description(
    'serve the agent over the A2A protocol on 127.0.0.1 with a bearer token (agent card, message/send, message/stream, tasks)',
  );
  addListenOptions(a2a, DEFAULT_A2A_PORT);
  return addTokenOption(a2a, TOKEN_ENV).action(
    async (options: ListenOptions & { token?: string }, command: Command) => {
      const { token, generated } = serverToken(options.token, TOKEN_ENV);
      await withData(deps, command, async (data) => {
        const service = deps.createTaskService(data);
        try {
          const server = await startA2aServer({
            service,
            db: data.store.db,
            port: options.port,
            host: options.host,
            allowedHosts: options.allowHost,
            token,
          });
          // stderr, so the token never ends up in a pipe meant for data
          announceAccess((line) => process.stderr.write(`${line}\n`), {
            command: 'manus a2a',
            host: options.host,
            token,
            generated,
            envName: TOKEN_ENV,
          });
          process.stdout.write(`Manus A2A agent on ${server.url} (card: ${server.url}/${AGENT_CARD_PATH})\n`);
          if (server.recoveredTaskIds.length > 0) {
            process.stdout.write(
              `${server.recoveredTaskIds.length} task(s) left unfinished by the last run were marked failed.\n`,
            );
          }
          await untilShutdown();
          await server.close();
        } finally {
          await service.close();
        }
      });
    },
  );
}
