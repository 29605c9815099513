import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Role, StreamResponse, TaskState, type Message, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { startA2aServer, type A2aServer } from '../../src/main/a2a/a2a-server.js';
import { outboundFetchWith } from '../../src/main/net/guarded-fetch.js';
import { PrivateAddressError } from '../../src/main/net/address-policy.js';
import { Store } from '../../src/main/store/store.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { a2aClient } from '../support/a2a-client.js';
import { waitFor } from '../support/wait-for.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
const finish = (text: string) => ({ text, toolCalls: [call('terminate', { status: 'success' })] });
const TOKEN = 'a2a-push-test-token-0123456789';
const NOTIFICATION_TOKEN = 'webhook-secret-42';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `manus a2a` as the CLI wires it: pushes under browser.allowPrivateNetwork, failures reported. */
async function startAgent(allowPrivateNetwork: boolean, answers: string[]) {
  const core: CoreHarness = await startCoreHarness(sequence(...answers.map(finish)));
  cleanups.push(() => core.close());
  if (!(core.store instanceof Store)) throw new Error('the harness store is not the SQLite Store');
  const failures: { url: string; error: Error }[] = [];
  const server: A2aServer = await startA2aServer({
    service: core.service,
    db: core.store.db,
    port: 0,
    token: TOKEN,
    outbound: outboundFetchWith(() => allowPrivateNetwork),
    onPushFailure: (url, error) => failures.push({ url, error }),
  });
  cleanups.push(() => server.close());
  const client = await a2aClient(server.url, TOKEN);
  return { client, server, failures };
}

function userMessage(text: string): Message {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** message/send with a webhook for the task's updates, blocking until the task ends. */
async function sendWithWebhook(client: Client, text: string, webhookUrl: string): Promise<Task> {
  const result = await client.sendMessage({
    tenant: '',
    message: userMessage(text),
    configuration: {
      acceptedOutputModes: ['text/plain'],
      taskPushNotificationConfig: {
        tenant: '',
        id: '',
        taskId: '',
        url: webhookUrl,
        token: NOTIFICATION_TOKEN,
        authentication: undefined,
      },
      returnImmediately: false,
    },
    metadata: undefined,
  });
  if (!('status' in result)) throw new Error('expected a task, got a message');
  return result;
}

/** The task state each push carried (a task snapshot or a status update). */
function pushedStates(receiver: Receiver): TaskState[] {
  return receiver.requests.flatMap(({ body }) => {
    const payload = StreamResponse.fromJSON(JSON.parse(body)).payload;
    if (payload?.$case === 'statusUpdate' || payload?.$case === 'task') return [payload.value.status!.state];
    return [];
  });
}

describe('manus a2a push notifications', () => {
  it('says so in its agent card', async () => {
    const { client, server } = await startAgent(false, ['unused']);
    expect((await client.getAgentCard()).capabilities?.pushNotifications).toBe(true);
    const legacy = await (await fetch(`${server.url}/.well-known/agent.json`)).json();
    expect(legacy.capabilities.pushNotifications).toBe(true);
  });

  it('posts the task updates, the completed one last, with the token header (private network allowed)', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const { client, failures } = await startAgent(true, ['The answer is 42.']);

    const task = await sendWithWebhook(client, 'What is the answer?', `http://127.0.0.1:${receiver.port}/hook`);
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await waitFor(
      () => pushedStates(receiver).includes(TaskState.TASK_STATE_COMPLETED),
      10_000,
      'the completed state to be pushed',
    );

    expect(failures).toEqual([]);
    const states = pushedStates(receiver);
    expect(states).toContain(TaskState.TASK_STATE_WORKING);
    expect(states.at(-1)).toBe(TaskState.TASK_STATE_COMPLETED);
    for (const { headers, body } of receiver.requests) {
      expect(headers['x-a2a-notification-token']).toBe(NOTIFICATION_TOKEN);
      expect(headers['content-type']).toBe('application/a2a+json');
      expect(body).toContain(task.id);
    }
  });

  it('ATTACK: a webhook on this machine gets nothing by default, and the tasks still complete', async () => {
    const receiver = await startReceiver();
    cleanups.push(() => receiver.close());
    const { client, failures } = await startAgent(false, ['First done.', 'Second done.']);
    const webhooks = [`http://127.0.0.1:${receiver.port}/hook`, `http://[::ffff:127.0.0.1]:${receiver.port}/hook`];

    for (const webhook of webhooks) {
      const task = await sendWithWebhook(client, 'Do it', webhook);
      expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    }
    // until a push arrives (the attack worked) or the pushes of both tasks (a working and a completed one) are refused
    await waitFor(
      () =>
        receiver.requests.length > 0 ||
        webhooks.every((url) => failures.filter((failure) => failure.url === url).length >= 2),
      10_000,
      'the pushes to be refused',
    );

    expect(receiver.requests).toEqual([]);
    for (const { error } of failures) expect(error).toBeInstanceOf(PrivateAddressError);
  });
});
