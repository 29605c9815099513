import { randomUUID } from 'node:crypto';
import { Role, type Task } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  RestTransportFactory,
  createAuthenticatingFetchWithRetry,
  type AuthenticationHandler,
  type Client,
} from '@a2a-js/sdk/client';

/**
 * An A2A client that sends `Authorization: Bearer <token>` on every call, the way the SDK supports it: an
 * authentication handler wrapped around fetch, given to each transport (the card itself is fetched without it).
 */
export function a2aClient(baseUrl: string, token: string): Promise<Client> {
  const bearer: AuthenticationHandler = {
    headers: async () => ({ Authorization: `Bearer ${token}` }),
    shouldRetryWithHeaders: async () => undefined,
  };
  const fetchImpl = createAuthenticatingFetchWithRetry(fetch, bearer);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl }), new RestTransportFactory({ fetchImpl })],
    }),
  );
  return factory.createFromUrl(baseUrl);
}

/** message/send of one text part, blocking until the task ends or needs input; `taskId` replies to a task. */
export async function sendText(
  client: Client,
  text: string,
  ids: { taskId?: string; contextId?: string } = {},
): Promise<Task> {
  const result = await client.sendMessage({
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId: ids.contextId ?? '',
      taskId: ids.taskId ?? '',
      role: Role.ROLE_USER,
      parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  });
  if (!('status' in result)) throw new Error('expected a task, got a message');
  return result;
}
