import { describe, expect, it } from 'vitest';
import { CoreEventSchema } from '../../src/shared/events.js';
import { openStore } from '../../src/main/store/store.js';
import { InvalidRecordError, SessionNotFoundError } from '../../src/main/store/store-errors.js';
import type { UnsequencedEvent } from '../../src/main/store/store-api.js';
import { messageEvent, newSession, stamped, tempStore } from './store-fixtures.js';

describe('Store events', () => {
  it('assigns seq 1, 2, 3... and returns the stored event', () => {
    const { store } = tempStore();
    const session = newSession(store);
    const first = store.appendEvent(messageEvent(session.id, 'hello', { role: 'user' }));
    const second = store.appendEvent(
      stamped({
        type: 'agent_state',
        sessionId: session.id,
        agent: 'manus',
        state: 'RUNNING',
        phase: 'thinking',
        step: 1,
        maxSteps: 20,
      }),
    );
    expect(first).toMatchObject({ seq: 1, type: 'message', text: 'hello', role: 'user' });
    expect(second).toMatchObject({ seq: 2, type: 'agent_state' });
    expect(store.listEvents(session.id)).toEqual([first, second]);
  });

  it('keeps seq contiguous per session when sessions interleave, also across reopen', () => {
    const { store, dataDir } = tempStore();
    const sessions = [newSession(store, 'a'), newSession(store, 'b'), newSession(store, 'c')];
    for (let round = 0; round < 50; round += 1) {
      for (const session of sessions.slice(0, 1 + (round % 3))) {
        store.appendEvent(messageEvent(session.id, `round ${round}`, { delta: true, messageId: 'x' }));
      }
    }
    store.close();
    const reopened = openStore(dataDir);
    try {
      for (const session of sessions) {
        reopened.appendEvent(messageEvent(session.id, 'after reopen'));
        const seqs = reopened.listEvents(session.id).map((event) => event.seq);
        expect(seqs).toEqual(seqs.map((_, index) => index + 1));
        expect(seqs.length).toBeGreaterThan(1);
      }
    } finally {
      reopened.close();
    }
  });

  it('takes over after another writer appended to the same session', () => {
    const { store, dataDir } = tempStore();
    const session = newSession(store);
    store.appendEvent(messageEvent(session.id, 'one'));
    const other = openStore(dataDir);
    try {
      other.appendEvent(messageEvent(session.id, 'two'));
      other.appendEvent(messageEvent(session.id, 'three'));
    } finally {
      other.close();
    }
    expect(store.appendEvent(messageEvent(session.id, 'four')).seq).toBe(4);
    expect(store.listEvents(session.id).map((event) => (event.type === 'message' ? event.text : ''))).toEqual([
      'one',
      'two',
      'three',
      'four',
    ]);
  });

  it('writes a group commit of many rows per statement, taking over seqs another writer used mid-batch', () => {
    const { store, dataDir } = tempStore();
    const [a, b] = [newSession(store, 'a'), newSession(store, 'b')];
    store.appendEvent(messageEvent(b.id, 'b first'));
    const shown: string[] = [];
    const note = (event: { type: string; seq: number; sessionId: string }) =>
      shown.push(`${event.sessionId}:${event.seq}`);
    // more rows than one INSERT statement holds, the two sessions interleaved, whole messages among deltas
    for (let index = 0; index < 70; index += 1) {
      const session = index % 2 === 0 ? a : b;
      const whole = index % 5 === 0;
      store.queueEvent(
        messageEvent(
          session.id,
          whole ? `needle${index}` : `delta ${index}`,
          whole ? {} : { delta: true, messageId: 'm' },
        ),
        note,
      );
    }
    const other = openStore(dataDir);
    try {
      other.appendEvent(messageEvent(b.id, 'b from elsewhere'));
    } finally {
      other.close();
    }
    store.commitQueued();

    for (const session of [a, b]) {
      const seqs = store.listEvents(session.id).map((event) => event.seq);
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    }
    expect(store.listEvents(a.id)).toHaveLength(35);
    // b: its first event, the other writer's, then its 35 queued ones moved up by one
    expect(store.listEvents(b.id)).toHaveLength(37);
    expect(store.listEvents(b.id)[1]).toMatchObject({ text: 'b from elsewhere', seq: 2 });
    expect(shown).toHaveLength(70);
    expect(shown.filter((entry) => entry.startsWith(`${b.id}:`))[0]).toBe(`${b.id}:3`);
    // whole messages are found by search, streamed deltas are not
    expect(store.searchSessions('needle60').map((hit) => hit.session.id)).toEqual([a.id]);
    expect(store.searchSessions('needle15').map((hit) => hit.session.id)).toEqual([b.id]);
    expect(store.searchSessions('delta')).toEqual([]);
  });

  it('validates events with the shared schema before writing, without using up a seq', () => {
    const { store } = tempStore();
    const session = newSession(store);
    const invalid = { ...messageEvent(session.id, 'x'), role: 'robot' } as unknown as UnsequencedEvent;
    expect(() => store.appendEvent(invalid)).toThrow(InvalidRecordError);
    expect(() =>
      store.appendEvent({ type: 'nonsense', sessionId: session.id, ts: 1 } as unknown as UnsequencedEvent),
    ).toThrow(/invalid nonsense event/);
    expect(store.listEvents(session.id)).toEqual([]);
    expect(store.appendEvent(messageEvent(session.id, 'ok')).seq).toBe(1);
  });

  it('refuses an event whose free-form fields cannot be JSON, with a clear error and no seq used', () => {
    const { store } = tempStore();
    const session = newSession(store);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const tool = (args: unknown) =>
      stamped({ type: 'tool', sessionId: session.id, callId: 'c', name: 'bash', args, status: 'calling' });
    expect(() => store.appendEvent(tool(circular))).toThrow(/invalid event: it cannot be written as JSON/);
    expect(() => store.appendEvent(tool({ big: 10n }))).toThrow(InvalidRecordError);
    expect(store.appendEvent(tool({ command: 'ls' })).seq).toBe(1);
  });

  it('drops fields outside the schema and stamps ts when missing', () => {
    const { store } = tempStore();
    const session = newSession(store);
    const event = { ...messageEvent(session.id, 'x'), secretField: 'leak' } as unknown as UnsequencedEvent;
    delete (event as { ts?: number }).ts;
    const stored = store.appendEvent(event);
    expect(stored).not.toHaveProperty('secretField');
    expect(stored.ts).toBeGreaterThan(0);
    expect(CoreEventSchema.parse(store.listEvents(session.id)[0])).toEqual(stored);
  });

  it('refuses events for an unknown session or without one', () => {
    const { store } = tempStore();
    expect(() => store.appendEvent(messageEvent('ghost', 'boo'))).toThrow(SessionNotFoundError);
    const orphan = { ...messageEvent('x', 'boo'), sessionId: undefined } as unknown as UnsequencedEvent;
    expect(() => store.appendEvent(orphan)).toThrow(/invalid message event: it names no sessionId/);
  });

  it('lists events after a seq and with a limit', () => {
    const { store } = tempStore();
    const session = newSession(store);
    for (let index = 0; index < 10; index += 1) store.appendEvent(messageEvent(session.id, `m${index}`));
    expect(store.listEvents(session.id, { afterSeq: 7 }).map((event) => event.seq)).toEqual([8, 9, 10]);
    expect(store.listEvents(session.id, { afterSeq: 2, limit: 3 }).map((event) => event.seq)).toEqual([3, 4, 5]);
    expect(store.listEvents('unknown')).toEqual([]);
  });

  it('keeps the event log append-only at the database level', () => {
    const { store } = tempStore();
    const session = newSession(store);
    store.appendEvent(messageEvent(session.id, 'fixed'));
    expect(() => store.db.prepare(`UPDATE events SET json = '{}'`).run()).toThrow(/append-only/);
    expect(() => store.db.prepare('DELETE FROM events').run()).toThrow(/append-only/);
    expect(store.listEvents(session.id)).toHaveLength(1);
  });

  it('round-trips every kind of event', () => {
    const { store } = tempStore();
    const session = newSession(store);
    const sessionId = session.id;
    const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };
    const plan = {
      planId: 'p1',
      title: 'Plan',
      steps: [{ text: 'do', status: 'in_progress' as const, notes: '' }],
      text: 'Plan\n[→] do',
    };
    const inputs = [
      stamped({ type: 'session', sessionId, action: 'created', session }),
      stamped({
        type: 'agent_state',
        sessionId,
        agent: 'manus',
        state: 'RUNNING',
        phase: 'acting',
        step: 2,
        maxSteps: 20,
      }),
      messageEvent(sessionId, 'hi'),
      stamped({
        type: 'tool',
        sessionId,
        callId: 'c1',
        name: 'bash',
        args: { command: 'ls' },
        status: 'done',
        output: 'a\nb',
        durationMs: 12,
      }),
      stamped({ type: 'plan', sessionId, action: 'created', plan }),
      stamped({
        type: 'step',
        sessionId,
        action: 'completed',
        planId: 'p1',
        stepIndex: 0,
        description: 'do',
        result: 'done',
      }),
      stamped({ type: 'phase', sessionId, phase: 'executing', planId: 'p1' }),
      stamped({ type: 'title', sessionId, title: 'New title' }),
      stamped({ type: 'usage', sessionId, model: 'm', request: usage, session: usage }),
      stamped({ type: 'ask', sessionId, askId: 'a1', kind: 'question', question: 'why?', status: 'waiting' }),
      stamped({ type: 'notice', sessionId, level: 'warning', code: 'image_dropped', text: 'no vision' }),
      stamped({ type: 'error', sessionId, code: 'llm_unreachable', message: 'down', hint: 'check URL' }),
      stamped({ type: 'done', sessionId, status: 'finished', result: 'all good' }),
    ];
    const stored = inputs.map((event) => store.appendEvent(event));
    expect(new Set(stored.map((event) => event.type)).size).toBe(CoreEventSchema.options.length);
    expect(store.listEvents(sessionId)).toEqual(stored);
  });
});
