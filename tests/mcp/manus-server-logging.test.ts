import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LoggingMessageNotificationSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { createManusMcpServer } from '../../src/main/mcp/server/manus-mcp-server.js';
import { taskRunnerFor, type TaskService } from '../../src/main/mcp/server/task-service.js';
import { createToolContext } from '../support/tool-context.js';
import { startCoreHarness } from '../support/core-harness.js';
import { sequence, type Script } from '../support/fake-llm/index.js';
import { planningScript } from '../flow/flow-script.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The project's MCP server over the real session service, reached by an SDK client. */
async function connectManusServer(script: Script, mode: 'agent' | 'planning' = 'agent') {
  const harness = await startCoreHarness(script);
  cleanups.push(() => harness.close());
  const service: TaskService = {
    start: (request) => harness.service.start({ ...request, mode }),
    cancel: (sessionId) => harness.service.cancel(sessionId),
    subscribe: (listener, sessionId) => harness.service.subscribe(listener, sessionId),
    isRunning: (sessionId) => harness.service.isRunning(sessionId),
    answer: (sessionId, askId, answer) => harness.service.answer(sessionId, askId, answer),
  };
  const server = createManusMcpServer({
    tools: [],
    runTask: taskRunnerFor(service),
    session: createToolContext({ sessionId: 'mcp-server', workspace: harness.dataDir }).session,
  });
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  const logs: { level: string; logger?: string; data: unknown }[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params);
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  cleanups.push(() => client.close());
  return { client, logs };
}

const finishing = sequence(
  { text: 'Looking.', toolCalls: [{ name: 'str_replace_editor', arguments: { command: 'view', path: '/workspace' } }] },
  { text: 'The answer is 42.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
);

describe('the Manus MCP server: logging and progress of run_task', () => {
  it('declares logging, streams what the agent does as log messages, and honours logging/setLevel', async () => {
    const { client, logs } = await connectManusServer(finishing);
    expect(client.getServerCapabilities()).toEqual({ tools: {}, logging: {} });

    await client.callTool({ name: 'run_task', arguments: { task: 'What is six times seven?' } });
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.every((log) => log.level === 'info' && log.logger === 'run_task')).toBe(true);
    expect(logs.map((log) => log.data)).toContain('calling str_replace_editor');

    await client.setLoggingLevel('warning');
    logs.length = 0;
    const result = await client.callTool({ name: 'run_task', arguments: { task: 'Again?' } });
    expect(JSON.stringify(result.content)).toContain('The answer is 42.');
    expect(logs).toEqual([]);
  });

  it("reports progress against the plan's step count", async () => {
    const { client } = await connectManusServer(planningScript(), 'planning');
    const updates: Progress[] = [];
    const result = await client.callTool({ name: 'run_task', arguments: { task: 'Write a report' } }, undefined, {
      onprogress: (update) => updates.push(update),
      timeout: 60_000,
    });
    expect(result.isError).toBe(false);
    const withTotal = updates.filter((update) => update.total !== undefined);
    expect(withTotal.length).toBeGreaterThan(0);
    const offset = withTotal[0].total! - 3;
    expect(withTotal.map((update) => update.message)).toEqual(
      expect.arrayContaining(['1/3 plan steps done', '2/3 plan steps done']),
    );
    expect(withTotal.every((update) => update.total === offset + 3)).toBe(true);
    // each notification's progress grows, as the specification requires
    const values = updates.map((update) => update.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(values.length);
  });
});
