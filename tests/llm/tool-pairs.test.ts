import { describe, expect, it } from 'vitest';
import { repairToolPairs } from '../../src/main/llm/tool-pairs.js';
import type { ChatMessage } from '../../src/shared/chat-message.js';
import { fakeLlmClient } from './llm-fixture.js';

const call = (id: string) => ({ id, name: 'bash', arguments: '{}' });

describe('tool call / result pairs', () => {
  it('answers interrupted calls and drops orphan results before sending', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ text: 'continuing' }));
    const memory: ChatMessage[] = [
      { role: 'user', content: 'go' },
      { role: 'tool', toolCallId: 'stray', content: 'orphan result' },
      { role: 'assistant', content: null, toolCalls: [call('a'), call('b')] },
      { role: 'tool', toolCallId: 'a', content: 'result a' },
      { role: 'tool', toolCallId: 'zzz', content: 'result of an unknown call' },
      { role: 'user', content: 'what happened?' },
    ];
    await llm.ask(memory);
    const sent = server.chatRequests[0].body.messages;
    expect(
      sent.map((message: { role: string; tool_call_id?: string }) => message.tool_call_id ?? message.role),
    ).toEqual(['user', 'assistant', 'a', 'b', 'user']);
    expect(sent[3].content).toMatch(/interrupted/);
  });

  it('leaves a well-formed conversation as it is', () => {
    const memory: ChatMessage[] = [
      { role: 'system', content: 's' },
      { role: 'assistant', content: null, toolCalls: [call('a')] },
      { role: 'tool', toolCallId: 'a', content: 'ok' },
      { role: 'assistant', content: 'done' },
    ];
    const repaired = repairToolPairs(memory);
    expect(repaired.repaired).toBe(0);
    expect(repaired.messages).toEqual(memory);
  });
});
