import { describe, expect, it } from 'vitest';
import { Memory, capMessages } from '../../src/main/agent/memory.js';
import { isStuck } from '../../src/main/agent/stuck-detector.js';
import type { ChatMessage } from '../../src/shared/chat-message.js';

const user = (content: string): ChatMessage => ({ role: 'user', content });
const assistantCall = (id: string): ChatMessage => ({
  role: 'assistant',
  content: null,
  toolCalls: [{ id, name: 't', arguments: '{}' }],
});
const result = (id: string): ChatMessage => ({ role: 'tool', content: 'r', toolCallId: id, name: 't' });

describe('Memory', () => {
  it('caps at maxMessages without leaving a tool result before its call', () => {
    const messages = [user('a'), assistantCall('1'), result('1'), assistantCall('2'), result('2')];
    const capped = capMessages(messages, 3);
    expect(capped).toEqual([assistantCall('2'), result('2')]);
  });

  it('persists what is added and reports unanswered calls', () => {
    const appended: ChatMessage[][] = [];
    const memory = new Memory([], 10, (added) => appended.push(added));
    memory.add(user('hi'), assistantCall('x'));
    expect(appended).toHaveLength(1);
    expect(memory.unansweredToolCalls()).toEqual([{ id: 'x', name: 't', arguments: '{}' }]);
    memory.add(result('x'));
    expect(memory.unansweredToolCalls()).toEqual([]);
  });

  it('detects duplicate replies (text or identical tool calls), ignoring empty ones', () => {
    const same: ChatMessage = { role: 'assistant', content: 'again' };
    expect(isStuck([same, user('x'), same])).toBe(false);
    expect(isStuck([same, user('x'), same, user('y'), same])).toBe(true);
    // the same tool with the same arguments (key order and spacing aside), getting the same result, three times
    expect(
      isStuck([assistantCall('1'), result('1'), assistantCall('2'), result('2'), assistantCall('3'), result('3')]),
    ).toBe(true);
    const search = (id: string, args: string, output = 'no hits'): ChatMessage[] => [
      { role: 'assistant', content: null, toolCalls: [{ id, name: 'web_search', arguments: args }] },
      { role: 'tool', content: output, toolCallId: id, name: 'web_search' },
    ];
    expect(
      isStuck([
        ...search('a', '{"query":"x","num_results":5}'),
        ...search('b', '{ "num_results": 5, "query": "x" }'),
        ...search('c', '{"query":"x",  "num_results":5}'),
      ]),
    ).toBe(true);
    // other arguments, or the same call getting new output (polling a running command), is not repeating oneself
    expect(
      isStuck([...search('a', '{"query":"x"}'), ...search('b', '{"query":"y"}'), ...search('c', '{"query":"x"}')]),
    ).toBe(false);
    expect(
      isStuck([
        ...search('a', '{"query":"x"}', 'building 10%'),
        ...search('b', '{"query":"x"}', 'building 60%'),
        ...search('c', '{"query":"x"}', 'built'),
      ]),
    ).toBe(false);
    const empty: ChatMessage = { role: 'assistant', content: '' };
    expect(isStuck([empty, empty, empty])).toBe(false);
  });
});
