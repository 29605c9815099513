import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CoreEventInput } from '../../src/shared/events.js';
import { ToolCallAgent, type ToolCallAgentDeps } from '../../src/main/agent/toolcall-agent.js';
import { Memory } from '../../src/main/agent/memory.js';
import { RunCancelledError } from '../../src/main/agent/errors.js';
import { STUCK_NUDGE } from '../../src/main/agent/stuck-detector.js';
import { createLlm } from '../../src/main/llm/client.js';
import { createToolContext } from '../support/tool-context.js';
import { terminateTool } from '../../src/main/tool/terminate.js';
import { defineTool, emitToolProgress, toolOutput, type AnyTool } from '../../src/main/tool/tool.js';
import { sequence, startFakeLlm, type FakeLlm, type Script } from '../support/fake-llm/index.js';
import { waitFor } from '../support/wait-for.js';

const echoTool = defineTool({
  name: 'echo',
  kind: 'generic',
  description: 'echo a text back',
  parameters: z.object({ text: z.string(), delayMs: z.number().int().optional() }),
  risk: 'read',
  async execute({ text, delayMs }, ctx) {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    return toolOutput(`echo:${text}:${ctx.callId}`);
  },
});

/** A tool whose answer depends only on its arguments, as a search that keeps finding nothing. */
const lookupTool = defineTool({
  name: 'lookup',
  kind: 'generic',
  description: 'look a word up',
  parameters: z.object({ word: z.string(), exact: z.boolean().optional() }),
  risk: 'read',
  execute: async ({ word }) => toolOutput(`no entry for ${word}`),
});

class TestAgent extends ToolCallAgent {
  readonly name = 'tester';
  readonly description = 'test agent';
  protected readonly systemPrompt = 'You are a test agent.';
}

let llm: FakeLlm;
beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(async () => {
  await llm.close();
});

function agentWith(script: Script, overrides: Partial<ToolCallAgentDeps> = {}) {
  llm.setScript(script);
  const events: CoreEventInput[] = [];
  const before = llm.chatRequests.length;
  const agent = new TestAgent({
    sessionId: 's1',
    workspace: '/tmp',
    llm: createLlm({
      provider: 'openai',
      model: 'test-model',
      baseUrl: llm.baseUrl,
      apiKey: 'k',
      maxAttempts: 1,
    } as never),
    emit: (event) => events.push(event),
    session: createToolContext({ sessionId: 's1', workspace: '/tmp' }).session,
    tools: () => [echoTool as AnyTool, terminateTool as AnyTool],
    maxSteps: 6,
    ...overrides,
  });
  return { agent, events, requests: () => llm.chatRequests.slice(before) };
}

const call = (name: string, args: unknown, id?: string) => ({
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
  id,
});

describe('ToolCallAgent', () => {
  it('thinks, acts and finishes on terminate with the last answer', async () => {
    const { agent, events, requests } = agentWith(
      sequence(
        { toolCalls: [call('echo', { text: 'hi' }, 'c1')] },
        { text: 'All done: hi', toolCalls: [call('terminate', { status: 'success' })] },
      ),
    );
    const result = await agent.run('say hi');
    expect(result).toMatchObject({ outcome: 'success', text: 'All done: hi', steps: 2 });
    const toolMessage = requests()[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ tool_call_id: 'c1', content: 'echo:hi:c1' });
    const toolEvents = events.filter((e) => e.type === 'tool');
    expect(toolEvents.map((e) => e.type === 'tool' && e.status)).toEqual(['calling', 'done', 'calling', 'done']);
    expect(events.some((e) => e.type === 'message' && e.delta)).toBe(true);
    expect(requests()[0].body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      'echo',
      'terminate',
    ]);
  });

  it('returns invalid JSON, schema violations and unknown tools to the model as readable errors', async () => {
    const { agent, requests, events } = agentWith(
      sequence(
        {
          toolCalls: [
            call('echo', '{"text": "unterminated', 'bad-json'),
            call('echo', { text: 42 }, 'bad-schema'),
            call('launch_rockets', {}, 'unknown'),
          ],
        },
        { text: 'ok', toolCalls: [call('terminate', { status: 'success' })] },
      ),
    );
    await agent.run('go');
    const toolMessages = requests()[1].body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(toolMessages.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual([
      'bad-json',
      'bad-schema',
      'unknown',
    ]);
    expect(toolMessages[0].content).toContain('not valid JSON');
    expect(toolMessages[1].content).toContain('Invalid arguments for echo');
    expect(toolMessages[1].content).toContain('text');
    expect(toolMessages[2].content).toContain('Unknown tool "launch_rockets"');
    expect(toolMessages[2].content).toContain('echo, terminate');
    expect(events.filter((e) => e.type === 'tool' && e.status === 'error')).toHaveLength(3);
  });

  it('runs several calls of one reply concurrently and keeps results in call order', async () => {
    const { agent, requests, events } = agentWith(
      sequence(
        {
          toolCalls: [
            call('echo', { text: 'slow', delayMs: 400 }, 'a'),
            call('echo', { text: 'fast', delayMs: 10 }, 'b'),
            call('echo', { text: 'mid', delayMs: 200 }, 'c'),
          ],
        },
        { text: 'done', toolCalls: [call('terminate', { status: 'success' })] },
      ),
    );
    await agent.run('go');
    // run side by side: every call started before the first one (the fastest) finished
    const toolEvents = events.flatMap((event) => (event.type === 'tool' ? [`${event.status} ${event.callId}`] : []));
    expect(toolEvents.slice(0, 4)).toEqual(['calling a', 'calling b', 'calling c', 'done b']);
    const toolMessages = requests()[1].body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(toolMessages.map((m: { content: string }) => m.content.split(':')[1])).toEqual(['slow', 'fast', 'mid']);
  });

  it("gives every call its own app id while the model reads its answers under the provider's reused id", async () => {
    const progressTool = defineTool({
      ...echoTool,
      name: 'echo_progress',
      async execute({ text }, ctx) {
        emitToolProgress(ctx, 'echo_progress', { text }, `working on ${text}`);
        return toolOutput(`echo:${text}`);
      },
    });
    const { agent, requests, events } = agentWith(
      sequence(
        { toolCalls: [call('echo_progress', { text: 'one' }, 'call_0')] },
        { toolCalls: [call('echo_progress', { text: 'two' }, 'call_0')] },
        { text: 'done', toolCalls: [call('terminate', { status: 'success' }, 'call_0')] },
      ),
      { tools: () => [progressTool as AnyTool, terminateTool as AnyTool] },
    );
    await agent.run('go');
    const toolEvents = events.flatMap((event) => (event.type === 'tool' ? [event] : []));
    expect(new Set(toolEvents.map((event) => event.callId))).toEqual(new Set(['call_0']));
    const byToolId = new Map<string | undefined, typeof toolEvents>();
    for (const event of toolEvents) byToolId.set(event.toolId, [...(byToolId.get(event.toolId) ?? []), event]);
    expect(byToolId.has(undefined)).toBe(false);
    expect(byToolId.size).toBe(3);
    expect([...byToolId.values()].map((calls) => calls.map((event) => event.progress ?? event.status))).toEqual([
      ['calling', 'working on one', 'done'],
      ['calling', 'working on two', 'done'],
      ['calling', 'done'],
    ]);
    const lastToolMessages = requests()[2].body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(lastToolMessages).toMatchObject([
      { tool_call_id: 'call_0', content: 'echo:one' },
      { tool_call_id: 'call_0', content: 'echo:two' },
    ]);
  });

  it('cuts outputs longer than max_observe with a note', async () => {
    const { agent, requests } = agentWith(
      sequence(
        { toolCalls: [call('echo', { text: 'x'.repeat(500) }, 'long')] },
        { text: 'done', toolCalls: [call('terminate', { status: 'success' })] },
      ),
      { maxObserve: 100 },
    );
    await agent.run('go');
    const toolMessage = requests()[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    // head and tail kept, the note inside the limit
    expect(toolMessage.content.startsWith('echo:' + 'x'.repeat(20))).toBe(true);
    expect(toolMessage.content).toMatch(/\[\.\.\. \d+ characters of output cut \(limit 100\) \.\.\.\]\nx+:long$/);
    expect(toolMessage.content.length).toBeLessThanOrEqual(100);
  });

  it('nudges a stuck agent, then stops it with a clear note', async () => {
    const { agent, requests, events } = agentWith(
      () => ({ text: 'I will look again.', toolCalls: [call('lookup', { word: 'same' })] }),
      { maxSteps: 12, tools: () => [lookupTool as AnyTool, terminateTool as AnyTool] },
    );
    const result = await agent.run('go');
    expect(result.outcome).toBe('stuck');
    expect(result.text).toContain('same reply');
    const nudged = requests().filter((r) => JSON.stringify(r.body.messages).includes(STUCK_NUDGE));
    expect(nudged.length).toBeGreaterThanOrEqual(1);
    expect(events.some((e) => e.type === 'notice' && e.code === 'agent_stuck')).toBe(true);
  });

  it('detects a model repeating the identical tool call, nudges it in the next request, and lets it change course', async () => {
    // the same call three times, its JSON written differently each time, then a new approach once nudged
    const repeats = [
      '{"word":"qwxz","exact":true}',
      '{ "exact": true, "word": "qwxz" }',
      '{"exact":true,"word":"qwxz"}',
    ];
    let repeat = 0;
    const { agent, requests, events } = agentWith(
      (request) => {
        const last = request.body.messages.at(-1);
        if (last.role === 'user' && last.content.includes(STUCK_NUDGE)) {
          return { text: 'Trying a prefix instead.', toolCalls: [call('terminate', { status: 'success' })] };
        }
        return { toolCalls: [call('lookup', repeats[Math.min(repeat++, repeats.length - 1)])] };
      },
      { maxSteps: 8, tools: () => [lookupTool as AnyTool, terminateTool as AnyTool] },
    );
    const result = await agent.run('look up qwxz');
    expect(result).toMatchObject({ outcome: 'success', text: 'Trying a prefix instead.', steps: 4 });
    const sent = requests();
    expect(sent).toHaveLength(4);
    // no nudge before the third identical call; the fourth request ends with it
    expect(sent.slice(0, 3).some((r) => JSON.stringify(r.body.messages).includes(STUCK_NUDGE))).toBe(false);
    expect(sent[3].body.messages.at(-1)).toEqual({ role: 'user', content: STUCK_NUDGE });
    const notices = events.filter((e) => e.type === 'notice' && e.code === 'agent_stuck');
    expect(notices).toHaveLength(1);
  });

  it('stops at max steps with a clear note', async () => {
    let n = 0;
    const { agent } = agentWith(() => ({ toolCalls: [call('echo', { text: `step ${n++}` })] }), { maxSteps: 3 });
    const result = await agent.run('go');
    expect(result).toMatchObject({ outcome: 'max_steps', steps: 3 });
    expect(result.text).toContain('step limit (3 steps)');
  });

  it('finishes on a plain answer without tool calls', async () => {
    const { agent } = agentWith(sequence({ text: 'The answer is 4.' }));
    expect(await agent.run('2+2?')).toMatchObject({ outcome: 'success', text: 'The answer is 4.', steps: 1 });
  });

  it('cancels while the model hangs', async () => {
    const { agent, requests } = agentWith(sequence({ fault: 'hang' }));
    const abort = new AbortController();
    const running = agent.run('go', { signal: abort.signal });
    await waitFor(() => requests().length === 1, 5_000, 'the request to the model');
    abort.abort();
    await expect(running).rejects.toBeInstanceOf(RunCancelledError);
    expect(agent.state).toBe('IDLE');
  });

  it('leaves the memory valid when cancelled during a tool call', async () => {
    const memory = new Memory();
    const { agent, events } = agentWith(
      sequence({ toolCalls: [call('echo', { text: 'wait', delayMs: 5000 }, 'pending')] }),
      {
        memory,
        tools: () => [
          defineTool({
            name: 'echo',
            kind: 'generic',
            description: 'waits for the signal',
            parameters: z.object({ text: z.string(), delayMs: z.number() }),
            risk: 'read',
            execute: (_args, ctx) =>
              new Promise((_resolve, reject) =>
                ctx.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }),
              ),
          }) as AnyTool,
        ],
      },
    );
    const abort = new AbortController();
    const running = agent.run('go', { signal: abort.signal });
    await waitFor(() => events.some((e) => e.type === 'tool' && e.status === 'calling'));
    abort.abort();
    await expect(running).rejects.toBeInstanceOf(RunCancelledError);
    expect(memory.unansweredToolCalls()).toEqual([]);
    expect(memory.last()).toMatchObject({ role: 'tool', toolCallId: 'pending' });
  });
});
