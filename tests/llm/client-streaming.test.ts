import { describe, expect, it } from 'vitest';
import type { UsageTotals } from '../../src/shared/events.js';
import { sequence } from '../support/fake-llm/index.js';
import { fakeLlmClient } from './llm-fixture.js';

const user = (content: string) => ({ role: 'user' as const, content });
const bashTool = {
  name: 'bash',
  description: 'Run a shell command',
  parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
};
const terminateTool = {
  name: 'terminate',
  description: 'Finish the task',
  parameters: { type: 'object', properties: { status: { type: 'string' } } },
};

describe('LlmClient over the fake server', () => {
  it('streams text: one onDelta per chunk, the whole text returned', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ text: 'The answer to your question is forty two.' }));
    const deltas: string[] = [];
    const reply = await llm.ask([{ role: 'system', content: 'be brief' }, user('question?')], {
      onDelta: (chunk) => deltas.push(chunk),
    });
    expect(reply.text).toBe('The answer to your question is forty two.');
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(reply.text);
    expect(reply.finishReason).toBe('stop');
    const body = server.chatRequests[0].body;
    expect(body.stream).toBe(true);
    expect(body.stream_options).toEqual({ include_usage: true });
    expect(body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'question?' },
    ]);
    expect(body.tools).toBeUndefined();
  });

  it('assembles several tool calls from streamed deltas, passing malformed arguments and unknown names through', async () => {
    const { server, llm } = await fakeLlmClient(() => ({
      text: 'Let me look.',
      toolCalls: [
        { name: 'bash', arguments: { command: 'ls -la' }, id: 'call_1' },
        { name: 'terminate', arguments: { status: 'success' }, id: 'call_2' },
        { name: 'no_such_tool', arguments: '{"oops": ', id: 'call_3' },
      ],
    }));
    const reply = await llm.askTool([user('list files')], { tools: [bashTool, terminateTool], toolChoice: 'required' });
    expect(reply.text).toBe('Let me look.');
    expect(reply.finishReason).toBe('tool_calls');
    expect(reply.toolCalls).toEqual([
      { id: 'call_1', name: 'bash', arguments: '{"command":"ls -la"}' },
      { id: 'call_2', name: 'terminate', arguments: '{"status":"success"}' },
      { id: 'call_3', name: 'no_such_tool', arguments: '{"oops": ' },
    ]);
    const body = server.chatRequests[0].body;
    expect(body.tool_choice).toBe('required');
    expect(body.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(['bash', 'terminate']);
    expect(body.tools[0]).toEqual({ type: 'function', function: bashTool });
  });

  it('sends tool_choice none and auto as asked', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ text: 'no tools needed' }));
    await llm.askTool([user('hi')], { tools: [bashTool], toolChoice: 'none' });
    await llm.askTool([user('hi')], { tools: [bashTool] });
    expect(server.chatRequests.map((captured) => captured.body.tool_choice)).toEqual(['none', 'auto']);
  });

  it('sends memory with tool calls and results in the chat format', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ text: 'done' }));
    await llm.askTool(
      [
        user('list files'),
        { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] },
        { role: 'tool', content: 'a.txt\nb.txt', toolCallId: 'c1', name: 'bash' },
      ],
      { tools: [bashTool] },
    );
    expect(server.chatRequests[0].body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.txt\nb.txt' },
    ]);
  });

  it('works without streaming', async () => {
    const { server, llm } = await fakeLlmClient(
      sequence({ text: 'plain' }, { toolCalls: [{ name: 'bash', arguments: { command: 'pwd' }, id: 'x1' }] }),
    );
    const deltas: string[] = [];
    const text = await llm.ask([user('hi')], { stream: false, onDelta: (chunk) => deltas.push(chunk) });
    expect(text.text).toBe('plain');
    expect(deltas).toEqual([]);
    const tools = await llm.askTool([user('hi')], { tools: [bashTool], stream: false });
    expect(tools.toolCalls).toEqual([{ id: 'x1', name: 'bash', arguments: '{"command":"pwd"}' }]);
    expect(server.chatRequests.every((captured) => !captured.body.stream)).toBe(true);
  });

  it('reports usage with cost from the configured pricing', async () => {
    const { llm } = await fakeLlmClient(
      () => ({ text: 'hello', usage: { prompt_tokens: 1000, completion_tokens: 500 } }),
      {
        pricing: { prompt: 2.5, completion: 10 },
      },
    );
    const seen: { usage: UsageTotals; model: string }[] = [];
    const reply = await llm.ask([user('hi')], { onUsage: (usage, model) => seen.push({ usage, model }) });
    const expected = { promptTokens: 1000, completionTokens: 500, totalTokens: 1500, cost: 0.0075 };
    expect(reply.usage).toEqual(expected);
    expect(seen).toEqual([{ usage: expected, model: 'fake-model' }]);
  });

  it('counts usage with the tokenizer when the server sends none', async () => {
    const answer = 'Paris is the capital of France.';
    const { llm } = await fakeLlmClient(() => ({ text: answer, usage: null }));
    const reply = await llm.ask([
      { role: 'system', content: 'You answer geography questions.' },
      user('Capital of France?'),
    ]);
    // o200k_base: "Paris is the capital of France." is 7 tokens
    expect(reply.usage.completionTokens).toBe(7);
    // 2 messages of 3 framing tokens + role + content, plus 3 for reply priming
    expect(reply.usage.promptTokens).toBeGreaterThan(15);
    expect(reply.usage.promptTokens).toBeLessThan(30);
    expect(reply.usage.totalTokens).toBe(reply.usage.promptTokens + reply.usage.completionTokens);
    expect(reply.usage.cost).toBeUndefined();
  });

  it('gives reasoning models max_completion_tokens and no temperature', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ text: 'ok' }), {
      model: 'o3-mini',
      maxTokens: 2000,
      temperature: 0.3,
    });
    await llm.ask([user('think')]);
    const body = server.chatRequests[0].body;
    expect(body.model).toBe('o3-mini');
    expect(body.max_completion_tokens).toBe(2000);
    expect(body.max_tokens).toBeUndefined();
    expect(body.temperature).toBeUndefined();
  });

  it('gives other models max_tokens and the configured temperature', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ text: 'ok' }), {
      model: 'gpt-4o',
      maxTokens: 1500,
      temperature: 0.2,
    });
    await llm.ask([user('hi')], { maxTokens: 300 });
    const body = server.chatRequests[0].body;
    expect(body.max_tokens).toBe(300);
    expect(body.max_completion_tokens).toBeUndefined();
    expect(body.temperature).toBe(0.2);
  });
});
