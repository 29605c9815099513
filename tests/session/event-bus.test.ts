import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoreEvent, CoreEventInput } from '../../src/shared/events.js';
import { EventBus, MAX_EVENTS_PER_COMMIT, STREAM_COMMIT_WINDOW_MS } from '../../src/main/session/event-bus.js';
import { SecretRedactor } from '../../src/main/store/redact.js';
import { openStore, type Store } from '../../src/main/store/store.js';
import { newSession, tempStore } from '../store/store-fixtures.js';

const nextTick = () => new Promise((resolve) => setImmediate(resolve));

/** a streamed piece: it may wait for the rest of its stream (STREAM_COMMIT_WINDOW_MS) */
function delta(sessionId: string, text: string): CoreEventInput {
  return { type: 'message', sessionId, messageId: 'reply', role: 'assistant', text, delta: true };
}

/** a whole message: committed with everything queued before it at the end of its tick */
function whole(sessionId: string, text: string): CoreEventInput {
  return { type: 'message', sessionId, messageId: `reply-${text}`, role: 'assistant', text, delta: false };
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
        bus.emit(whole(index % 3 === 0 ? second : first, `chunk ${index}`)),
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
    const queued = bus.emit(whole(sessionId, 'hello'));
    expect(store.listEvents(sessionId)).toEqual([queued]);
    expect(seen).toEqual([]);
    bus.emit(whole(sessionId, 'again'));
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
    bus.emit(whole(sessionId, 'before'));
    expect(() => bus.emit(whole('ghost', 'boo'))).toThrow(/ghost/);
    bus.emit(whole(sessionId, 'after'));
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
    bus.emit(whole(sessionId, 'one'));
    await nextTick();
    bus.emit(whole(sessionId, 'three'));
    const other = openStore(dataDir);
    other.appendEvent({ ...whole(sessionId, 'two'), ts: Date.now() });
    other.close();
    await nextTick();
    expect(store.listEvents(sessionId).map((event) => [event.seq, textOf(event)])).toEqual([
      [1, 'one'],
      [2, 'two'],
      [3, 'three'],
    ]);
    expect(seen.map((event) => event.seq)).toEqual([1, 3]);
  });

  describe('streamed pieces', () => {
    afterEach(() => vi.useRealTimers());

    it('wait across ticks for the rest of their stream, then share one commit and are shown in order', async () => {
      // only the window's timer is faked: ticks (setImmediate) run for real, and the window ends when the test says
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { store, dataDir } = tempStore();
      const sessionId = newSession(store).id;
      const reader = committedReader(dataDir);
      try {
        const bus = new EventBus(store, new SecretRedactor());
        const seen: CoreEvent[] = [];
        bus.subscribe((event) => seen.push(event));
        const progress: CoreEventInput = {
          type: 'tool',
          sessionId,
          callId: 'c1',
          name: 'bash',
          args: {},
          status: 'calling',
          progress: 'line\n',
        };
        for (let index = 0; index < 10; index += 1) {
          bus.emit(index % 2 === 0 ? delta(sessionId, `piece ${index}`) : progress);
          await nextTick();
        }
        // ten chunks in ten ticks: none committed, none shown yet
        expect(reader.seqs(sessionId)).toEqual([]);
        expect(seen).toEqual([]);

        await vi.advanceTimersByTimeAsync(STREAM_COMMIT_WINDOW_MS);
        expect(reader.seqs(sessionId)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
        expect(seen.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      } finally {
        reader.close();
      }
    });

    it('take what the run emits meanwhile into their window, until an event someone waits on commits them all', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { store, dataDir } = tempStore();
      const sessionId = newSession(store).id;
      const reader = committedReader(dataDir);
      try {
        const bus = new EventBus(store, new SecretRedactor());
        const seen: CoreEvent[] = [];
        bus.subscribe((event) => seen.push(event));
        bus.emit(delta(sessionId, 'The '));
        await nextTick();
        bus.emit(delta(sessionId, 'answer'));
        await nextTick();
        // the whole reply and a tool call, emitted while the stream's window is open, join it
        bus.emit(whole(sessionId, 'The answer'));
        bus.emit({ type: 'tool', sessionId, callId: 'c1', name: 'bash', args: {}, status: 'calling' });
        await nextTick();
        expect(seen).toEqual([]);
        expect(reader.seqs(sessionId)).toEqual([]);
        // the run's end is waited on: it goes out at the end of its tick, with everything before it, in order
        bus.emit({ type: 'done', sessionId, status: 'finished', result: 'ok' });
        await nextTick();
        expect(seen.map((event) => event.type)).toEqual(['message', 'message', 'message', 'tool', 'done']);
        expect(reader.seqs(sessionId)).toEqual([1, 2, 3, 4, 5]);
        // the window that was open has nothing left to commit when it ends
        await vi.advanceTimersByTimeAsync(STREAM_COMMIT_WINDOW_MS);
        expect(seen).toHaveLength(5);
      } finally {
        reader.close();
      }
    });

    it('leave an event without a window open to commit at the end of its tick', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const { store } = tempStore();
      const sessionId = newSession(store).id;
      const bus = new EventBus(store, new SecretRedactor());
      const seen: CoreEvent[] = [];
      bus.subscribe((event) => seen.push(event));
      bus.emit(whole(sessionId, 'No stream here'));
      await nextTick();
      expect(seen.map(textOf)).toEqual(['No stream here']);
    });
  });
});
