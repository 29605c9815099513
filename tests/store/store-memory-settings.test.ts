import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../src/shared/chat-message.js';
import { InvalidRecordError, SessionNotFoundError } from '../../src/main/store/store-errors.js';
import { newSession, tempStore } from './store-fixtures.js';

const toolTurn: ChatMessage[] = [
  { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] },
  { role: 'tool', content: 'a\nb', toolCallId: 'c1', name: 'bash' },
];

describe('Store agent memory', () => {
  it('appends per agent, in order, and keeps agents apart', () => {
    const { store } = tempStore();
    const session = newSession(store);
    store.appendMemory(session.id, 'manus', [{ role: 'system', content: 'You are Manus' }]);
    store.appendMemory(session.id, 'manus', toolTurn);
    store.appendMemory(session.id, 'planner', [{ role: 'user', content: 'plan it' }]);
    expect(store.loadMemory(session.id, 'manus')).toEqual([{ role: 'system', content: 'You are Manus' }, ...toolTurn]);
    expect(store.loadMemory(session.id, 'planner')).toEqual([{ role: 'user', content: 'plan it' }]);
    expect(store.loadMemory(session.id, 'nobody')).toEqual([]);
  });

  it('replaces an agent memory (after compaction) and appends after the replacement', () => {
    const { store } = tempStore();
    const session = newSession(store);
    store.appendMemory(session.id, 'manus', [...toolTurn, { role: 'user', content: 'old' }]);
    store.replaceMemory(session.id, 'manus', [{ role: 'user', content: 'summary' }]);
    store.appendMemory(session.id, 'manus', [{ role: 'assistant', content: 'next' }]);
    expect(store.loadMemory(session.id, 'manus')).toEqual([
      { role: 'user', content: 'summary' },
      { role: 'assistant', content: 'next' },
    ]);
  });

  it('writes nothing when one message of a batch is invalid', () => {
    const { store } = tempStore();
    const session = newSession(store);
    const batch = [
      { role: 'user', content: 'fine' },
      { role: 'robot', content: 'bad' },
    ] as unknown as ChatMessage[];
    expect(() => store.appendMemory(session.id, 'manus', batch)).toThrow(InvalidRecordError);
    expect(() => store.replaceMemory(session.id, 'manus', batch)).toThrow(/memory message #1/);
    expect(store.loadMemory(session.id, 'manus')).toEqual([]);
  });

  it('refuses memory for an unknown session', () => {
    const { store } = tempStore();
    expect(() => store.appendMemory('ghost', 'manus', [{ role: 'user', content: 'x' }])).toThrow(SessionNotFoundError);
  });
});

describe('Store settings', () => {
  it('sets, overwrites, lists and deletes JSON values', () => {
    const { store } = tempStore();
    expect(store.getSetting('settings')).toBeUndefined();
    store.setSetting('settings', { llms: { main: { model: 'gpt-4o' } } });
    store.setSetting('theme', 'dark');
    store.setSetting('theme', 'light');
    store.setSetting('count', 3);
    expect(store.getSetting<{ llms: unknown }>('settings')).toEqual({ llms: { main: { model: 'gpt-4o' } } });
    expect(store.listSettings()).toEqual({
      count: 3,
      settings: { llms: { main: { model: 'gpt-4o' } } },
      theme: 'light',
    });
    store.deleteSetting('theme');
    expect(store.getSetting('theme')).toBeUndefined();
    expect(Object.keys(store.listSettings())).toEqual(['count', 'settings']);
  });

  it('refuses a value that cannot be JSON', () => {
    const { store } = tempStore();
    expect(() => store.setSetting('fn', () => 1)).toThrow(/setting "fn"/);
    expect(store.getSetting('fn')).toBeUndefined();
  });
});
