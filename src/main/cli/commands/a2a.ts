import { Command } from 'commander';
import type { SessionStore } from '../../store/store-api.js';
import type { SqliteDatabase } from '../../store/database.js';
import { startA2aServer } from '../../a2a/a2a-server.js';
import { untilShutdown, withData } from './command-deps.js';
import type { AgentServeDeps } from './mcp-server.js';

const DEFAULT_A2A_PORT = 10000;

/** The A2A task table lives in the app's database, so the store must expose its SQLite handle. */
export type A2aDeps = AgentServeDeps<SessionStore & { readonly db: SqliteDatabase }>;

/** `manus a2a`: the agent as an A2A server other agents can discover and hand tasks to. */
export function a2aCommand(deps: A2aDeps): Command {
  return new Command('a2a')
    .description('serve the agent over the A2A protocol on 127.0.0.1 (agent card, message/send, message/stream, tasks)')
    .option('--port <n>', 'port', String(DEFAULT_A2A_PORT))
    .action(async (options: { port: string }, command: Command) => {
      await withData(deps, command, async (data) => {
        const service = deps.createTaskService(data);
        try {
          const server = await startA2aServer({ service, db: data.store.db, port: Number(options.port) });
          process.stdout.write(`Manus A2A agent on ${server.url} (card: ${server.url}/.well-known/agent-card.json)\n`);
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
    });
}
