import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { fitContext } from '../../src/main/llm/context-fit.js';
import { createTokenCounter } from '../../src/main/llm/tokens.js';
import type { ChatMessage } from '../../src/shared/chat-message.js';
import { sequence, type ScriptRequest } from '../support/fake-llm/index.js';
import { fakeLlmClient, noticeCollector } from './llm-fixture.js';

const SYSTEM = 'You are Manus, an agent working in /workspace.';
const TASK = 'Analyse every log file in the workspace and write a report.';
const bashTool = {
  name: 'bash',
  description: 'Run a shell command',
  parameters: { type: 'object', properties: { command: { type: 'string' } } },
};

function hugeOutput(step: number, lines: number): string {
  return Array.from(
    { length: lines },
    (_, line) => `step ${step} line ${line}: GET /api/items/${line * 7} 200 12ms`,
  ).join('\n');
}

/** system + task + (assistant with 1–2 tool calls + results) turns, 300 messages in all, old outputs huge. */
function longConversation(): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: TASK },
  ];
  for (let step = 0; messages.length < 300; step++) {
    const calls = step % 3 === 0 ? 2 : 1;
    const toolCalls = Array.from({ length: calls }, (_, position) => ({
      id: `call_${step}_${position}`,
      name: 'bash',
      arguments: JSON.stringify({ command: `cat logs/${step}-${position}.log` }),
    }));
    messages.push({ role: 'assistant', content: `Step ${step}: reading logs.`, toolCalls });
    for (const call of toolCalls) {
      if (messages.length >= 300) break;
      const recent = step > 110;
      messages.push({ role: 'tool', toolCallId: call.id, name: 'bash', content: hugeOutput(step, recent ? 5 : 400) });
    }
  }
  // end on a complete turn: drop a trailing assistant whose results did not fit in 300
  while (messages.at(-1)?.role === 'assistant') messages.pop();
  return messages;
}

interface WireMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

/** Every assistant tool call is answered right after it, and every tool result answers the call before it. */
function expectPairsIntact(messages: WireMessage[]): void {
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (message.role === 'assistant' && message.tool_calls?.length) {
      const ids = message.tool_calls.map((call) => call.id);
      const results = messages.slice(index + 1, index + 1 + ids.length);
      expect(results.map((result) => result.role)).toEqual(ids.map(() => 'tool'));
      expect(results.map((result) => result.tool_call_id)).toEqual(ids);
    }
    if (message.role === 'tool') {
      let owner = index - 1;
      while (messages[owner]?.role === 'tool') owner--;
      expect(messages[owner]?.role).toBe('assistant');
      expect(messages[owner].tool_calls?.map((call) => call.id)).toContain(message.tool_call_id);
    }
  }
}

function wireTokens(request: ScriptRequest): number {
  return countTokens(JSON.stringify(request.body.messages)) + countTokens(JSON.stringify(request.body.tools ?? []));
}

describe('context fitting', () => {
  it('fits a 300-message conversation with huge tool outputs and keeps call/result pairs intact', async () => {
    const conversation = longConversation();
    expect(conversation.length).toBeGreaterThan(295);
    const counter = createTokenCounter('fake-model', { vision: false });
    expect(counter.messages(conversation)).toBeGreaterThan(500_000);

    const { server, llm } = await fakeLlmClient(() => ({ text: 'report written' }), {
      contextWindow: 32_000,
      maxTokens: 2_000,
    });
    const { notices, onNotice } = noticeCollector();
    const reply = await llm.askTool(conversation, { tools: [bashTool], onNotice });
    expect(reply.text).toBe('report written');

    const sent = server.chatRequests[0].body.messages as WireMessage[];
    // JSON framing costs more than the chat format, so this is an upper bound of what the model sees
    expect(wireTokens(server.chatRequests[0])).toBeLessThan(32_000 - 2_000);
    expect(sent[0].role).toBe('system');
    expect(sent[0].content).toContain(SYSTEM);
    expect(sent[0].content).toMatch(/\d+ earlier messages of this conversation were left out/);
    expect(sent[1]).toEqual({ role: 'user', content: TASK });
    expectPairsIntact(sent);
    // the recent turns arrive untouched
    const original = conversation.slice(-6).map((message) => message.content);
    expect(sent.slice(-6).map((message) => message.content)).toEqual(original);
    // older outputs that were kept are shortened with a note, not silently cut
    const shortened = sent.filter(
      (message) => message.role === 'tool' && message.content?.includes('characters cut here'),
    );
    expect(shortened.length).toBeGreaterThan(5);
    expect(notices.map((notice) => notice.code)).toEqual(['context_fitted']);
    expect(notices[0].text).toMatch(/tool output\(s\) shortened, \d+ old message\(s\) left out/);
  });

  it('shortens old tool outputs before dropping any turn', () => {
    const counter = createTokenCounter('gpt-4o', { vision: false });
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: TASK },
    ];
    for (let step = 0; step < 10; step++) {
      messages.push({
        role: 'assistant',
        content: null,
        toolCalls: [{ id: `c${step}`, name: 'bash', arguments: '{}' }],
      });
      messages.push({ role: 'tool', toolCallId: `c${step}`, content: hugeOutput(step, step < 6 ? 300 : 3) });
    }
    const budget = 6_000;
    expect(counter.messages(messages)).toBeGreaterThan(budget);
    const fit = fitContext(messages, { budget, counter });
    expect(fit.fits).toBe(true);
    expect(fit.droppedMessages).toBe(0);
    expect(fit.messages).toHaveLength(messages.length);
    expect(fit.shortenedOutputs).toBeGreaterThan(0);
    expect(fit.tokens).toBeLessThanOrEqual(budget);
    // shortened outputs keep their head and tail
    const first = fit.messages[3].content ?? '';
    expect(first.startsWith('step 0 line 0:')).toBe(true);
    expect(first.endsWith('step 0 line 299: GET /api/items/2093 200 12ms')).toBe(true);
    // the input is not modified
    expect(messages[3].content).toBe(hugeOutput(0, 300));
  });

  it('returns the conversation as it is when it fits', () => {
    const counter = createTokenCounter('gpt-4o', { vision: false });
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: TASK },
    ];
    const fit = fitContext(messages, { budget: 1_000, counter });
    expect(fit).toMatchObject({ fits: true, shortenedOutputs: 0, droppedMessages: 0 });
    expect(fit.messages).toEqual(messages);
  });

  it('never cuts a task larger than the budget: the conversation does not fit', () => {
    const counter = createTokenCounter('gpt-4o', { vision: false });
    const task = `Summarise this:\n${hugeOutput(1, 2_000)}`;
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: task },
    ];
    const fit = fitContext(messages, { budget: 3_000, counter });
    expect(fit.fits).toBe(false);
    expect(fit.fixedTokens).toBeGreaterThan(3_000);
    expect(fit.messages[1].content).toBe(task);
  });

  it('keeps a large task whole while older turns are dropped', () => {
    const counter = createTokenCounter('gpt-4o', { vision: false });
    const task = `Use these notes:\n${hugeOutput(0, 80)}`;
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: task },
    ];
    for (let step = 1; step < 30; step++) {
      messages.push({
        role: 'assistant',
        content: null,
        toolCalls: [{ id: `c${step}`, name: 'bash', arguments: '{}' }],
      });
      messages.push({ role: 'tool', toolCallId: `c${step}`, content: hugeOutput(step, 40) });
    }
    const budget = 5_000;
    // the task takes more than a quarter of the budget, which used to get it dropped
    expect(counter.text(task)).toBeGreaterThan(budget / 4);
    const fit = fitContext(messages, { budget, counter });
    expect(fit.fits).toBe(true);
    expect(fit.droppedMessages).toBeGreaterThan(0);
    expect(fit.messages[1]).toEqual({ role: 'user', content: task });
  });

  it('cuts a huge newest tool output to fit, keeping its head and tail, and keeps the task whole', () => {
    const counter = createTokenCounter('gpt-4o', { vision: false });
    const output = hugeOutput(1, 2_000);
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: TASK },
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'bash', arguments: '{}' }] },
      { role: 'tool', toolCallId: 'c1', content: output },
    ];
    const fit = fitContext(messages, { budget: 3_000, counter });
    expect(fit.fits).toBe(true);
    expect(fit.shortenedOutputs).toBe(1);
    expect(fit.messages[1].content).toBe(TASK);
    const cut = fit.messages[3].content ?? '';
    expect(cut.startsWith('step 1 line 0:')).toBe(true);
    expect(cut).toMatch(/\[\.\.\. \d+ characters cut here to fit the model's context window \.\.\.\]/);
    expect(cut.endsWith('step 1 line 1999: GET /api/items/13993 200 12ms')).toBe(true);
  });

  it('keeps a long agent run going against a server that enforces its context window', async () => {
    const contextWindow = 16_000;
    const { server, llm } = await fakeLlmClient(
      (request) =>
        wireTokens(request) > contextWindow
          ? {
              fault: 'status',
              status: 400,
              code: 'context_length_exceeded',
              message: `This model's maximum context length is ${contextWindow} tokens. Please reduce the length of the messages.`,
            }
          : { toolCalls: [{ name: 'bash', arguments: { command: `cat part-${request.index}.log` } }] },
      { contextWindow, maxTokens: 1_000 },
    );
    const memory: ChatMessage[] = [
      { role: 'system', content: SYSTEM },
      { role: 'user', content: TASK },
    ];
    for (let step = 0; step < 40; step++) {
      const reply = await llm.askTool(memory, { tools: [bashTool] });
      memory.push({ role: 'assistant', content: reply.text || null, toolCalls: reply.toolCalls });
      for (const call of reply.toolCalls) {
        memory.push({ role: 'tool', toolCallId: call.id, name: call.name, content: hugeOutput(step, 150) });
      }
    }
    expect(server.chatRequests).toHaveLength(40);
    expect(server.chatRequests.every((request) => !('fault' in (request.reply ?? {})))).toBe(true);
    for (const request of server.chatRequests) expectPairsIntact(request.body.messages);
  });

  it('shrinks harder and retries once when the server still says the context is too long', async () => {
    const { server, llm } = await fakeLlmClient(
      sequence(
        {
          fault: 'status',
          status: 400,
          code: 'context_length_exceeded',
          message: "This model's maximum context length is 8192 tokens, however you requested 9000 tokens.",
        },
        { text: 'fits now' },
      ),
      { contextWindow: 12_000, maxTokens: 1_000 },
    );
    const { notices, onNotice } = noticeCollector();
    const memory: ChatMessage[] = [{ role: 'system', content: SYSTEM }];
    for (let step = 0; step < 6; step++) {
      memory.push({ role: 'assistant', content: null, toolCalls: [{ id: `c${step}`, name: 'bash', arguments: '{}' }] });
      memory.push({ role: 'tool', toolCallId: `c${step}`, content: hugeOutput(step, 60) });
    }
    const reply = await llm.askTool(memory, { tools: [bashTool], onNotice });
    expect(reply.text).toBe('fits now');
    expect(server.chatRequests).toHaveLength(2);
    const [first, second] = server.chatRequests.map(wireTokens);
    expect(second).toBeLessThan(first * 0.8);
    expect(notices.some((notice) => /too long.*shrinking it harder/.test(notice.text))).toBe(true);

    const { llm: hopeless } = await fakeLlmClient(() => ({
      fault: 'status',
      status: 400,
      code: 'context_length_exceeded',
    }));
    await expect(hopeless.ask(memory)).rejects.toMatchObject({ code: 'context_length' });
  });
});
