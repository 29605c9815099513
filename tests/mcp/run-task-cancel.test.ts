import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createManusMcpServer, RUN_TASK_TOOL } from '../../src/main/mcp/server/manus-mcp-server.js';
import { serveMcpOverHttp } from '../../src/main/mcp/server/serve.js';
import { taskRunnerFor } from '../../src/main/mcp/server/task-service.js';
import type { McpSessionLimits } from '../../src/main/mcp/server/http-sessions.js';
import type { CoreEvent } from '../../src/shared/events.js';
import { createToolContext } from '../support/tool-context.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import type { FakeReply, ScriptRequest } from '../support/fake-llm/index.js';
import { waitFor } from '../support/wait-for.js';

const TOKEN = 'cancel-test-token-0123456789';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A model that would never stop: each reply (a little slow, as a real model's) calls a tool again. */
const endless = (request: ScriptRequest): FakeReply => ({
  delayMs: 100,
  toolCalls: [{ name: 'no_such_tool', arguments: { attempt: request.index } }],
});

interface Connected {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

async function connect(url: string): Promise<Connected> {
  const client = new Client({ name: 'cancel-test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return { client, transport };
}

async function servedOverHttp(
  harness: CoreHarness,
  sessionLimits?: McpSessionLimits,
): Promise<{ client: Client; url: string }> {
  const served = await serveMcpOverHttp(
    () =>
      createManusMcpServer({
        tools: [],
        runTask: taskRunnerFor(harness.service),
        session: createToolContext({ sessionId: 'mcp-server', workspace: harness.dataDir }).session,
      }),
    { port: 0, token: TOKEN, ...(sessionLimits ? { sessionLimits } : {}) },
  );
  cleanups.push(() => served.close());
  return { client: (await connect(served.url)).client, url: served.url };
}

function settledRuns(harness: CoreHarness): CoreEvent[] {
  const settled: CoreEvent[] = [];
  harness.service.subscribe((event) => {
    if (event.type === 'done') settled.push(event);
  });
  return settled;
}

describe('cancelling run_task over streamable HTTP', () => {
  it('cancels the session when the client aborts the call: no further model request, status cancelled', async () => {
    const harness = await startCoreHarness(endless, { settings: { agent: { maxSteps: 200 } } });
    cleanups.push(() => harness.close());
    const { client } = await servedOverHttp(harness);
    const settled = settledRuns(harness);

    const abort = new AbortController();
    const call = client.callTool({ name: RUN_TASK_TOOL, arguments: { task: 'Keep going' } }, undefined, {
      signal: abort.signal,
      timeout: 60_000,
    });
    const rejected = expect(call).rejects.toThrow(/the person changed their mind/);
    await waitFor(() => harness.llm.chatRequests.length >= 2, 10_000, 'the agent at work');
    abort.abort('the person changed their mind');
    await rejected;

    await waitFor(() => settled.length > 0, 10_000, 'the run to settle');
    const [session] = harness.store.listSessions({ limit: 1 });
    expect(settled[0]).toMatchObject({ type: 'done', sessionId: session.id, status: 'cancelled' });
    expect(session.status).toBe('cancelled');
    const requestsWhenSettled = harness.llm.chatRequests.length;
    // the agent would have gone on for 200 steps; a round trip later nothing more was asked of the model
    await client.listTools();
    expect(harness.llm.chatRequests.length).toBe(requestsWhenSettled);
    expect(requestsWhenSettled).toBeLessThan(10);
  });

  it('cancels the session when the client hangs up in the middle of the call', async () => {
    const harness = await startCoreHarness(endless, { settings: { agent: { maxSteps: 200 } } });
    cleanups.push(() => harness.close());
    const { client } = await servedOverHttp(harness);
    const settled = settledRuns(harness);
    const call = client.callTool({ name: RUN_TASK_TOOL, arguments: { task: 'Keep going' } }, undefined, {
      timeout: 60_000,
    });
    const failed = expect(call).rejects.toThrow();
    await waitFor(() => harness.llm.chatRequests.length >= 2, 10_000, 'the agent at work');
    await client.close();
    await failed;
    await waitFor(() => settled.length > 0, 10_000, 'the run to settle');
    expect(settled[0]).toMatchObject({ status: 'cancelled' });
  });

  it('keeps each client in its own MCP session: unknown sessions get 404, requests without one 400', async () => {
    const harness = await startCoreHarness(endless);
    cleanups.push(() => harness.close());
    const { client, url } = await servedOverHttp(harness);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([RUN_TASK_TOOL]);
    const post = (headers: Record<string, string>) =>
      fetch(url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post({ 'mcp-session-id': 'not-a-session' })).status).toBe(404);
    expect((await post({})).status).toBe(400);
  });

  it('keeps at most maxSessions: the longest idle one makes room, busy ones are never closed, DELETE ends one', async () => {
    const harness = await startCoreHarness(endless, { settings: { agent: { maxSteps: 200 } } });
    cleanups.push(() => harness.close());
    const { client: first, url } = await servedOverHttp(harness, { maxSessions: 2 });
    const second = await connect(url);
    await second.client.listTools();
    // a third client: the first, idle the longest, is closed to make room
    const third = await connect(url);
    await expect(first.listTools()).rejects.toThrow(/404|Session not found/);

    const stops = [new AbortController(), new AbortController()];
    const runs = [second, third].map(({ client }, index) =>
      client
        .callTool({ name: RUN_TASK_TOOL, arguments: { task: `Busy ${index}` } }, undefined, {
          signal: stops[index].signal,
          timeout: 60_000,
        })
        .catch(() => undefined),
    );
    await waitFor(() => harness.service.runningSessionIds().length === 2, 10_000, 'two tasks at work');
    // both sessions have a call under way: neither is closed, the newcomer is told to come back later
    await expect(connect(url)).rejects.toThrow(/503|at work/);

    for (const stop of stops) stop.abort('done here');
    await Promise.all(runs);
    await waitFor(() => harness.service.runningSessionIds().length === 0, 10_000, 'the tasks cancelled');
    const ended = third.transport.sessionId!;
    await third.transport.terminateSession();
    const afterDelete = await fetch(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': ended,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(afterDelete.status).toBe(404);
    expect((await second.client.listTools()).tools).toHaveLength(1);
  });
});
