import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { startA2aServer, type A2aServer } from '../../src/main/a2a/a2a-server.js';
import { Store } from '../../src/main/store/store.js';
import { SqliteTaskStore } from '../../src/main/a2a/sqlite-task-store.js';
import { sequence, type Script } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { a2aClient } from '../support/a2a-client.js';
import { waitFor } from '../support/wait-for.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
const finish = (text: string) => ({ text, toolCalls: [call('terminate', { status: 'success' })] });
const TOKEN = 'a2a-test-token-0123456789';

interface Opened {
  harness?: CoreHarness;
  server?: A2aServer;
}
const opened: Opened[] = [];
afterEach(async () => {
  for (const { server, harness } of opened.splice(0).reverse()) {
    await server?.close();
    await harness?.close();
  }
});

async function startAgent(script: Script, harness?: CoreHarness) {
  const core = harness ?? (await startCoreHarness(script));
  if (!(core.store instanceof Store)) throw new Error('the harness store is not the SQLite Store');
  const server = await startA2aServer({ service: core.service, db: core.store.db, port: 0, token: TOKEN });
  const client = await a2aClient(server.url, TOKEN);
  const entry: Opened = { harness: harness ? undefined : core, server };
  opened.push(entry);
  return { core, server, client, entry };
}

function userMessage(text: string, contextId = ''): Message {
  return {
    messageId: randomUUID(),
    contextId,
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function send(
  client: Client,
  text: string,
  options: { contextId?: string; taskId?: string; returnImmediately?: boolean } = {},
) {
  return client.sendMessage({
    tenant: '',
    message: { ...userMessage(text, options.contextId), taskId: options.taskId ?? '' },
    configuration: {
      acceptedOutputModes: ['text/plain'],
      taskPushNotificationConfig: undefined,
      returnImmediately: options.returnImmediately ?? false,
    },
    metadata: undefined,
  });
}

function asTask(result: Message | Task): Task {
  if (!('status' in result)) throw new Error('expected a task, got a message');
  return result;
}

function resultText(task: Task): string {
  const part = task.artifacts.find((artifact) => artifact.artifactId === 'result')?.parts[0]?.content;
  return part?.$case === 'text' ? part.value : '';
}

describe('manus a2a through the SDK client', () => {
  it('publishes the agent card with its skills at both well-known paths', async () => {
    const { server, client } = await startAgent(sequence(finish('unused')));
    const card = await client.getAgentCard();
    expect(card.name).toBe('Manus');
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.skills.map((skill) => skill.id)).toEqual(expect.arrayContaining(['general_task', 'web_research']));
    expect(card.supportedInterfaces[0].url).toBe(`${server.url}/a2a/jsonrpc`);

    const legacy = await (await fetch(`${server.url}/.well-known/agent.json`)).json();
    expect(legacy.name).toBe('Manus');
    expect(legacy.url).toBe(`${server.url}/a2a/jsonrpc`);
    expect(legacy.skills.length).toBe(card.skills.length);
  });

  it('runs a task on message/send and returns the answer as the result artifact; tasks/get reads it back', async () => {
    const { core, client } = await startAgent(sequence(finish('Paris is the capital of France.')));
    const task = asTask(await send(client, 'What is the capital of France?'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultText(task)).toBe('Paris is the capital of France.');

    const fetched = await client.getTask({ tenant: '', id: task.id });
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultText(fetched)).toBe('Paris is the capital of France.');
    expect(JSON.stringify(core.llm.chatRequests[0].body.messages)).toContain('What is the capital of France?');

    core.llm.setScript(sequence(finish('You asked about France.')));
    const followUp = asTask(await send(client, 'What did I ask?', { contextId: task.contextId }));
    expect(resultText(followUp)).toBe('You asked about France.');
    expect(JSON.stringify(core.llm.chatRequests.at(-1)?.body.messages)).toContain('What is the capital of France?');
  });

  it('streams status updates for the work and an artifact update for the answer (message/stream)', async () => {
    const { client } = await startAgent(
      sequence(
        {
          text: 'Let me look at the workspace first.',
          toolCalls: [call('str_replace_editor', { command: 'view', path: '/workspace' })],
        },
        finish('The workspace is empty.'),
      ),
    );
    const kinds: string[] = [];
    const workingTexts: string[] = [];
    let artifactText = '';
    let finalState: TaskState | undefined;
    for await (const update of client.sendMessageStream({
      tenant: '',
      message: userMessage('Describe the workspace'),
      configuration: undefined,
      metadata: undefined,
    })) {
      const payload = update.payload;
      if (!payload) continue;
      kinds.push(payload.$case);
      if (payload.$case === 'statusUpdate') {
        const state = payload.value.status?.state;
        const part = payload.value.status?.message?.parts[0]?.content;
        if (state === TaskState.TASK_STATE_WORKING && part?.$case === 'text') workingTexts.push(part.value);
        finalState = state;
      }
      if (payload.$case === 'artifactUpdate') {
        const part = payload.value.artifact?.parts[0]?.content;
        artifactText = part?.$case === 'text' ? part.value : '';
      }
    }
    expect(kinds[0]).toBe('task');
    expect(kinds).toContain('artifactUpdate');
    expect(workingTexts).toEqual(expect.arrayContaining(['calling str_replace_editor', 'calling terminate']));
    expect(workingTexts.join('\n')).toContain('Let me look at the workspace first.');
    expect(artifactText).toBe('The workspace is empty.');
    expect(finalState).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('cancels a running task for real (tasks/cancel stops the session)', async () => {
    const { core, client } = await startAgent(sequence({ fault: 'hang' }));
    const submitted = asTask(await send(client, 'Think for a very long time', { returnImmediately: true }));
    await waitFor(() => core.service.runningSessionIds().length > 0, 10_000, 'the run to start');
    const sessionId = core.service.runningSessionIds()[0];

    const cancelled = await client.cancelTask({ tenant: '', id: submitted.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(core.service.isRunning(sessionId)).toBe(false);
    expect(core.store.getSession(sessionId)?.status).toBe('cancelled');
    expect((await client.getTask({ tenant: '', id: submitted.id })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('keeps tasks in SQLite across a restart; running ones end canceled, ones a killed server left are failed', async () => {
    const first = await startAgent(sequence(finish('Stored answer.')));
    const done = asTask(await send(first.client, 'Remember this'));
    first.core.llm.setScript(sequence({ fault: 'hang' }));
    const running = asTask(await send(first.client, 'This one never ends', { returnImmediately: true }));
    await first.server.close();
    first.entry.server = undefined;
    // what a process killed mid-run leaves behind: a task still marked working
    const store = first.core.store as Store;
    const orphan = { ...done, id: randomUUID(), status: { ...done.status!, state: TaskState.TASK_STATE_WORKING } };
    await new SqliteTaskStore(store.db).save(orphan);

    const second = await startAgent(sequence(finish('unused')), first.core);
    expect(second.server.recoveredTaskIds).toEqual([orphan.id]);
    const reloaded = await second.client.getTask({ tenant: '', id: done.id });
    expect(reloaded.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultText(reloaded)).toBe('Stored answer.');
    expect((await second.client.getTask({ tenant: '', id: running.id })).status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    expect((await second.client.getTask({ tenant: '', id: orphan.id })).status?.state).toBe(
      TaskState.TASK_STATE_FAILED,
    );
  });

  it('answers v0.3 JSON-RPC clients (message/send, tasks/get) on the same endpoint', async () => {
    const { server } = await startAgent(sequence(finish('Hello from Manus.')));
    const rpc = async (method: string, params: unknown) => {
      const response = await fetch(`${server.url}/a2a/jsonrpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      return response.json();
    };
    const sent = await rpc('message/send', {
      message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'Say hello' }] },
    });
    expect(sent.error).toBeUndefined();
    expect(sent.result.kind).toBe('task');
    expect(sent.result.status.state).toBe('completed');
    expect(sent.result.artifacts[0].parts[0].text).toBe('Hello from Manus.');
    const fetched = await rpc('tasks/get', { id: sent.result.id });
    expect(fetched.result.status.state).toBe('completed');
  });

  it('a question of the agent is `input-required` (the session `waiting`) and the reply answers it', async () => {
    const { core, client } = await startAgent(
      sequence(
        { toolCalls: [call('ask_human', { inquire: 'Which city do you mean?' })] },
        finish('Lyon has about half a million people.'),
      ),
    );
    const asked = asTask(await send(client, 'How many people live in the city?'));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const question = asked.status?.message?.parts[0]?.content;
    expect(question).toEqual({ $case: 'text', value: 'Which city do you mean?' });
    const sessionId = core.service.runningSessionIds()[0];
    expect(core.store.getSession(sessionId)?.status).toBe('waiting');
    expect((await client.getTask({ tenant: '', id: asked.id })).status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );

    const answered = asTask(await send(client, 'Lyon', { taskId: asked.id, contextId: asked.contextId }));
    expect(answered.id).toBe(asked.id);
    expect(answered.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(resultText(answered)).toBe('Lyon has about half a million people.');
    const toolReply = core.llm.chatRequests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolReply.content).toBe('Lyon');
    expect(core.store.getSession(sessionId)?.status).toBe('finished');
  });
});
