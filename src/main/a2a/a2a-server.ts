import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { DefaultRequestHandler } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import type { SqliteDatabase } from '../store/database.js';
import type { TaskService } from '../mcp/server/task-service.js';
import { SqliteTaskStore } from './sqlite-task-store.js';
import { ManusAgentExecutor } from './manus-agent-executor.js';
import { JSONRPC_PATH, REST_PATH, manusAgentCard } from './agent-card.js';

/** Only this machine may call: the agent runs code and reads files. */
const LOOPBACK = '127.0.0.1';
const CARD_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'];
const AGENT_VERSION = '0.1.0';

export interface A2aServer {
  url: string;
  port: number;
  /** tasks a previous server left unfinished, now marked failed */
  recoveredTaskIds: string[];
  close(): Promise<void>;
}

/**
 * Serves the agent over A2A (v1.0 JSON-RPC and HTTP+JSON, and v0.3 `message/send`-style clients through the
 * SDK's compat layer) with tasks kept in SQLite.
 */
export async function startA2aServer(options: {
  service: TaskService;
  db: SqliteDatabase;
  port: number;
}): Promise<A2aServer> {
  const app = express();
  const http = await new Promise<HttpServer>((resolve, reject) => {
    const listening = app.listen(options.port, LOOPBACK, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const port = (http.address() as AddressInfo).port;
  const url = `http://${LOOPBACK}:${port}`;

  const taskStore = new SqliteTaskStore(options.db);
  const recoveredTaskIds = await taskStore.failUnfinished('the A2A server stopped before the task finished');
  const executor = new ManusAgentExecutor(options.service, taskStore);
  const requestHandler = new DefaultRequestHandler(manusAgentCard(url, AGENT_VERSION), taskStore, executor);
  const compat = { legacyCompat: { enabled: true } };
  for (const path of CARD_PATHS) app.use(path, agentCardHandler({ agentCardProvider: requestHandler, ...compat }));
  const transport = { requestHandler, userBuilder: UserBuilder.noAuthentication, ...compat };
  app.use(JSONRPC_PATH, jsonRpcHandler(transport));
  app.use(REST_PATH, restHandler(transport));

  return {
    url,
    port,
    recoveredTaskIds,
    close: async () => {
      // running tasks end as canceled (not left "working" forever in the table)
      await executor.cancelAll();
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}
