import { describe, expect, it } from 'vitest';
import type { CoreEvent, CoreEventInput } from '../../src/shared/events.js';
import { EventBus, MAX_EVENTS_PER_COMMIT } from '../../src/main/session/event-bus.js';
import { SecretRedactor } from '../../src/main/store/redact.js';
import { openStore, type Store } from '../../src/main/store/store.js';
import { newSession, tempStore } from '../store/store-fixtures.js';

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

function delta(sessionId: string, text: string): CoreEventInput {
  return { type: 'message', sessionId, messageId: 'reply', role: 'assistant', text, delta: true };
}

function textOf(event: CoreEvent): string {
  return event.type === 'message' ? event.text : event.type;
}

/** A second connection to the same file: it sees only what was committed, never what a store still queues. */
function committedReader(dataDir: string): { seqs: (sessionId: string) => number[]; close: () => void } {
  const reader: Store = openStore(dataDir);
  const select = reader.db
    .prepare<[string], number>('SELECT seq FROM events WHERE session_id = ? ORDER BY seq')
    .pluck();
  return { seqs: (sessionId) => select.all(sessionId), close: () => reader.close() };
}

describe('EventBus group commit', () => {
  it('shows a subscriber each event of a burst only once it is committed, in emit order across two sessions', async () => {
    const { store, dataDir } = tempStore();
    const [first, second] = [newSession(store, 'first').id, newSession(store, 'second').id];
    const reader = committedReader(dataDir);
    try {
      const bus = new EventBus(store, new SecretRedactor());
      const seen: CoreEvent[] = [];
      const committedWhenSeen: boolean[] = [];
      bus.subscribe((event) => {
        seen.push(event);
        committedWhenSeen.push(reader.seqs(event.sessionId).includes(event.seq));
      });
      const emitted = Array.from({ length: 120 }, (_, index) =>
        bus.emit(delta(index % 3 === 0 ? second : first, `chunk ${index}`)),
      );
      // one transaction at the end of the tick: nothing is written, nor shown, while the burst is being emitted
      expect(reader.seqs(first)).toEqual([]);
      expect(seen).toEqual([]);

      await nextTick();
      expect(seen).toEqual(emitted);
      expect(committedWhenSeen.every(Boolean)).toBe(true);
      expect(seen.map(textOf)).toEqual(emitted.map((_, index) => `chunk ${index}`));
      for (const sessionId of [first, second]) {
        const seqs = seen.filter((event) => event.sessionId === sessionId).map((event) => event.seq);
        expect(seqs).toEqual(seqs.map((_, index) => index + 1));
        expect(reader.seqs(sessionId)).toEqual(seqs);
      }
    } finally {
      reader.close();
    }
  });

  it('lets a read in the same tick find what was just emitted, and still shows each event once, after the tick', async () => {
    const { store } = tempStore();
    const sessionId = newSession(store).id;
    const bus = new EventBus(store, new SecretRedactor());
    const seen: CoreEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    const queued = bus.emit(delta(sessionId, 'hello'));
    expect(store.listEvents(sessionId)).toEqual([queued]);
    expect(seen).toEqual([]);
    bus.emit(delta(sessionId, 'again'));
    await nextTick();
    expect(seen.map(textOf)).toEqual(['hello', 'again']);
    expect(store.listEvents(sessionId).map((event) => event.seq)).toEqual([1, 2]);
  });

  it('writes the events emitted before an agent memory append ahead of it, so memory never runs ahead of the log', () => {
    const { store, dataDir } = tempStore();
    const sessionId = newSession(store).id;
    const reader = committedReader(dataDir);
    try {
      const bus = new EventBus(store, new SecretRedactor());
      bus.emit(delta(sessionId, 'the reply'));
      store.appendMemory(sessionId, 'manus', [{ role: 'assistant', content: 'the reply' }]);
      expect(reader.seqs(sessionId)).toEqual([1]);
    } finally {
      reader.close();
    }
  });

  it('commits and shows a burst longer than one commit holds in slices while it is emitted', () => {
    const { store } = tempStore();
    const sessionId = newSession(store).id;
    const bus = new EventBus(store, new SecretRedactor());
    const seen: CoreEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    for (let index = 0; index < MAX_EVENTS_PER_COMMIT; index += 1) bus.emit(delta(sessionId, `line ${index}`));
    expect(seen).toHaveLength(MAX_EVENTS_PER_COMMIT);
    expect(seen.at(-1)?.seq).toBe(MAX_EVENTS_PER_COMMIT);
  });

  it('refuses an event for an unknown session at emit, without losing the rest of the tick', async () => {
    const { store } = tempStore();
    const sessionId = newSession(store).id;
    const bus = new EventBus(store, new SecretRedactor());
    const seen: CoreEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    bus.emit(delta(sessionId, 'before'));
    expect(() => bus.emit(delta('ghost', 'boo'))).toThrow(/ghost/);
    bus.emit(delta(sessionId, 'after'));
    await nextTick();
    expect(seen.map(textOf)).toEqual(['before', 'after']);
    expect(store.listEvents(sessionId).map(textOf)).toEqual(['before', 'after']);
  });

  it('writes the events of a tick after those another process appended to the same session meanwhile', async () => {
    const { store, dataDir } = tempStore();
    const sessionId = newSession(store).id;
    const bus = new EventBus(store, new SecretRedactor());
    const seen: CoreEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    bus.emit(delta(sessionId, 'one'));
    await nextTick();
    bus.emit(delta(sessionId, 'three'));
    const other = openStore(dataDir);
    other.appendEvent({ ...delta(sessionId, 'two'), ts: Date.now() });
    other.close();
    await nextTick();
    expect(store.listEvents(sessionId).map((event) => [event.seq, textOf(event)])).toEqual([
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
    ]);
    expect(seen.map((event) => event.seq)).toEqual([1, 3]);
  });
});
