import { createServer } from 'node:http';
import express from 'express';
import { AGENT_CARD_PATH, AgentCard } from '@a2a-js/sdk';
import { DefaultRequestHandler, InMemoryPushNotificationStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from '@a2a-js/sdk/server/express';
import { legacyAgentCardRouter } from '@a2a-js/sdk/compat/v0_3/server/express';
import type { SqliteDatabase } from '../store/database.js';
import type { TaskService } from '../mcp/server/task-service.js';
import { SqliteTaskStore } from './sqlite-task-store.js';
import { ManusAgentExecutor } from './manus-agent-executor.js';
import { JSONRPC_PATH, REST_PATH, manusAgentCard } from './agent-card.js';
import { createRequestGuard } from '../server/request-guard.js';
import { outboundFetchWith, type OutboundFetch } from '../net/guarded-fetch.js';
import { GuardedPushNotificationSender, type PushFailure } from './guarded-push-sender.js';
import { LOOPBACK_ADDRESS, listenOn, serverUrl } from '../server/server-address.js';

/** Public, so other agents can discover how to call: the v1.0 card and the v0.3 one. */
const CARD_PATHS = [`/${AGENT_CARD_PATH}`, '/.well-known/agent.json'];
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
  /** every call but the card's carries `Authorization: Bearer <token>` */
  token: string;
  /** the address to listen on; loopback unless told otherwise (the agent runs code and reads files) */
  host?: string;
  /** more names clients may reach the server by (Host header), when listening beyond loopback */
  allowedHosts?: string[];
  /** how push notifications go out: the egress policy with browser.allowPrivateNetwork; no private addresses by default */
  outbound?: OutboundFetch;
  /** a push that was refused or failed (the task goes on); unreported by default */
  onPushFailure?: PushFailure;
}): Promise<A2aServer> {
  const address = options.host ?? LOOPBACK_ADDRESS;
  const guard = createRequestGuard({
    address,
    token: options.token,
    allowedHosts: options.allowedHosts,
    realm: 'manus-a2a',
  });
  const app = express();
  app.use(guard.middleware(CARD_PATHS));
  const http = createServer(app);
  const port = await listenOn(http, address, options.port);
  const url = serverUrl(address, port, options.allowedHosts);

  const taskStore = new SqliteTaskStore(options.db);
  const recoveredTaskIds = await taskStore.failUnfinished('the A2A server stopped before the task finished');
  const executor = new ManusAgentExecutor(options.service, taskStore);
  // webhooks live as long as the server: a client registers them again after a restart
  const pushStore = new InMemoryPushNotificationStore();
  const pushSender = new GuardedPushNotificationSender(
    pushStore,
    options.outbound ?? outboundFetchWith(() => false),
    options.onPushFailure ?? (() => undefined),
  );
  const requestHandler = new DefaultRequestHandler(
    manusAgentCard(url, AGENT_VERSION),
    taskStore,
    executor,
    undefined,
    pushStore,
    pushSender,
  );
  const compat = { legacyCompat: { enabled: true } };
  // v1.0 clients get the card as proto JSON: the SDK's handler sends its in-memory shape, which v1.0 clients read
  // without the security schemes; v0.3 clients (no A2A-Version: 1.0 header) get the v0.3 card
  const protoJsonCard = async () => AgentCard.toJSON(await requestHandler.getAgentCard()) as AgentCard;
  for (const path of CARD_PATHS) {
    app.use(
      path,
      legacyAgentCardRouter({ agentCardProvider: requestHandler }),
      agentCardHandler({ agentCardProvider: protoJsonCard }),
    );
  }
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
