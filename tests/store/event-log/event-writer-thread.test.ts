import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent, CoreEventInput } from '../../../src/shared/events.js';
import { EventBus } from '../../../src/main/session/event-bus.js';
import Database from 'better-sqlite3';
import { applyMigrations, databaseFile } from '../../../src/main/store/database.js';
import { MIGRATIONS } from '../../../src/main/store/migrations/index.js';
import { EventWriterThread } from '../../../src/main/store/event-log/event-writer-thread.js';
import { SecretRedactor } from '../../../src/main/store/redact.js';
import { MAX_BATCHES_IN_FLIGHT } from '../../../src/main/store/event-log/event-queue.js';
import { Store, openStore } from '../../../src/main/store/store.js';
import { waitFor } from '../../support/wait-for.js';
import { writerThreadStarted } from '../../support/writer-thread.js';
import { messageEvent, newSession, tempDir } from '../store-fixtures.js';

const stores: Store[] = [];

afterEach(() => {
  while (stores.length > 0) stores.pop()!.close();
});

/** A store writing its background batches on its own thread, once that thread has opened the database. */
async function backgroundStore(dataDir = tempDir()): Promise<{ store: Store; dataDir: string }> {
  const store = openStore(dataDir, { writeEventsInBackground: true });
  stores.push(store);
  await writerThreadStarted(store, 20_000);
  return { store, dataDir };
}

/** What another connection to the file sees: committed rows only, never a store's queue. */
function committedSeqs(dataDir: string, sessionId: string): number[] {
  const reader = openStore(dataDir);
  try {
    return reader.db
      .prepare<[string], number>('SELECT seq FROM events WHERE session_id = ? ORDER BY seq')
      .pluck()
      .all(sessionId);
  } finally {
    reader.close();
  }
}

interface Commit {
  answeredWithinTheCall: boolean;
  failure?: Error;
}

/** Commits in the background; resolves once answered, telling whether the answer came before the call returned. */
function commitInBackground(store: Store): { answered: Promise<Commit> } {
  let returned = false;
  const answered = new Promise<Commit>((resolve) => {
    store.commitQueuedInBackground(
      () => resolve({ answeredWithinTheCall: !returned }),
      (failure) => resolve({ answeredWithinTheCall: !returned, failure }),
    );
  });
  returned = true;
  return { answered };
}

describe('the event writer thread', () => {
  it('writes background batches on its own thread, in order, answering each only once it is committed', async () => {
    const { store, dataDir } = await backgroundStore();
    const session = newSession(store).id;
    const stored: number[] = [];
    const committedWhenAnswered: number[][] = [];
    const batches = [];
    for (let batch = 0; batch < 5; batch += 1) {
      for (let index = 0; index < 100; index += 1) {
        store.queueEvent(
          messageEvent(session, `batch ${batch} piece ${index}`, { delta: true, messageId: 'm' }),
          (event) => stored.push(event.seq),
        );
      }
      const commit = commitInBackground(store);
      batches.push(
        commit.answered.then((answer) => (committedWhenAnswered.push(committedSeqs(dataDir, session)), answer)),
      );
    }
    const answers = await Promise.all(batches);

    // answered later, by message: the writing happened elsewhere while this thread went on
    for (const answer of answers) expect(answer).toEqual({ answeredWithinTheCall: false });
    expect(stored).toEqual(Array.from({ length: 500 }, (_, index) => index + 1));
    // each answer came once its batch was committed (another connection sees it), and the batches in order
    committedWhenAnswered.forEach((seqs, batch) => expect(seqs.length).toBeGreaterThanOrEqual((batch + 1) * 100));
    expect(store.listEvents(session).map((event) => event.seq)).toEqual(stored);
    expect(store.listEvents(session)[250]).toMatchObject({ type: 'message', text: 'batch 2 piece 50', delta: true });
  });

  it(`holds further commits while ${MAX_BATCHES_IN_FLIGHT} batches are in flight, and writes them together once one is answered`, async () => {
    const { store, dataDir } = await backgroundStore();
    const session = newSession(store).id;
    const commits: Promise<number>[] = [];
    for (let commit = 0; commit < MAX_BATCHES_IN_FLIGHT + 3; commit += 1) {
      for (let index = 0; index < 50; index += 1) {
        store.queueEvent(
          messageEvent(session, `c${commit} p${index}`, { delta: true, messageId: 'm' }),
          () => undefined,
        );
      }
      // each answer tells how much another connection saw committed at that moment
      commits.push(commitInBackground(store).answered.then(() => committedSeqs(dataDir, session).length));
    }
    const committedAtAnswer = await Promise.all(commits);

    // the first batches went at once, each alone; the commits made while they were in flight went as one batch
    committedAtAnswer
      .slice(0, MAX_BATCHES_IN_FLIGHT)
      .forEach((committed, commit) => expect(committed).toBeGreaterThanOrEqual((commit + 1) * 50));
    const held = committedAtAnswer.slice(MAX_BATCHES_IN_FLIGHT);
    expect(new Set(held).size).toBe(1);
    expect(held[0]).toBe((MAX_BATCHES_IN_FLIGHT + 3) * 50);
    expect(store.listEvents(session).map((event) => event.seq)).toEqual(
      Array.from({ length: (MAX_BATCHES_IN_FLIGHT + 3) * 50 }, (_, index) => index + 1),
    );
  });

  it('makes a read, a memory write or a commit on the main connection wait for the batches in flight', async () => {
    const { store } = await backgroundStore();
    const session = newSession(store).id;
    const stored: number[] = [];
    for (let batch = 0; batch < 3; batch += 1) {
      for (let index = 0; index < 200; index += 1) {
        store.queueEvent(messageEvent(session, `word${batch}x${index}`), (event) => stored.push(event.seq));
      }
      commitInBackground(store);
    }
    // no await in between: the batches are still on their way when the read comes
    expect(store.listEvents(session)).toHaveLength(600);
    expect(stored).toHaveLength(600);
    store.appendMemory(session, 'manus', [{ role: 'assistant', content: 'after the events' }]);
    expect(store.searchSessions('word2x199').map((hit) => hit.session.id)).toEqual([session]);
  });

  it('moves rows past the seqs another process took meanwhile, as the main connection does', async () => {
    const { store, dataDir } = await backgroundStore();
    const [a, b] = [newSession(store, 'a').id, newSession(store, 'b').id];
    store.appendEvent(messageEvent(b, 'b first'));
    const shown: string[] = [];
    for (let index = 0; index < 70; index += 1) {
      const session = index % 2 === 0 ? a : b;
      store.queueEvent(messageEvent(session, `piece ${index}`, { delta: true, messageId: 'm' }), (event) =>
        shown.push(`${event.sessionId}:${event.seq}`),
      );
    }
    const other = openStore(dataDir);
    try {
      other.appendEvent(messageEvent(b, 'b from elsewhere'));
    } finally {
      other.close();
    }
    expect(await commitInBackground(store).answered).toEqual({ answeredWithinTheCall: false });

    for (const session of [a, b]) {
      const seqs = store.listEvents(session).map((event) => event.seq);
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    }
    expect(store.listEvents(b)).toHaveLength(37);
    expect(store.listEvents(b)[1]).toMatchObject({ text: 'b from elsewhere', seq: 2 });
    // the moved rows' JSON says where they are, and subscribers are handed them as stored
    expect(store.listEvents(b)[2]).toMatchObject({ text: 'piece 1', seq: 3 });
    expect(shown.filter((entry) => entry.startsWith(`${b}:`))[0]).toBe(`${b}:3`);
    // the next event of b follows the moved ones
    expect(store.appendEvent(messageEvent(b, 'next')).seq).toBe(38);
  });

  it('reports a batch it cannot write without showing any of it, and goes on with the next', async () => {
    const { store, dataDir } = await backgroundStore();
    const [doomed, kept] = [newSession(store, 'doomed').id, newSession(store, 'kept').id];
    const shown: string[] = [];
    store.queueEvent(messageEvent(doomed, 'written before the delete'), () => shown.push('first'));
    store.commitQueued();
    store.queueEvent(messageEvent(doomed, 'never written'), () => shown.push('doomed'));
    const other = openStore(dataDir);
    try {
      other.deleteSession(doomed);
    } finally {
      other.close();
    }
    const failed = await commitInBackground(store).answered;
    expect(failed.failure?.message).toMatch(new RegExp(`No session with id "${doomed}"`));
    expect(shown).toEqual(['first']);

    store.queueEvent(messageEvent(kept, 'still written'), () => shown.push('kept'));
    expect((await commitInBackground(store).answered).failure).toBeUndefined();
    expect(shown).toEqual(['first', 'kept']);
    expect(store.listEvents(kept)).toMatchObject([{ text: 'still written', seq: 1 }]);
  });

  it('closes after the batches in flight, before the main connection, which checkpoints the log away', async () => {
    const { store, dataDir } = await backgroundStore();
    const session = newSession(store).id;
    for (let index = 0; index < 300; index += 1) {
      store.queueEvent(messageEvent(session, `closing ${index}`), () => undefined);
      if (index % 100 === 99) commitInBackground(store);
    }
    stores.splice(stores.indexOf(store), 1);
    store.close();

    // the last connection to close folds the write-ahead log into the database and removes it
    expect(fs.existsSync(`${databaseFile(dataDir)}-wal`)).toBe(false);
    expect(committedSeqs(dataDir, session)).toHaveLength(300);
  });

  it('tells why it cannot run (a database it cannot open), and the store writes on its own connection', async () => {
    const reasons: string[] = [];
    const missingFolder = path.join(tempDir(), 'missing', 'manus.db');
    const thread = EventWriterThread.start(missingFolder, {}, (reason) => reasons.push(reason));
    expect(thread).toBeDefined();
    await waitFor(() => reasons.length > 0, 20_000, 'the thread to say it cannot open the database');
    expect(reasons[0]).toMatch(/unable to open database file|directory does not exist/i);
    expect(thread!.ready).toBe(false);
    thread!.close();

    // an in-memory database has no file for a second connection: the store commits on its own, answering at once
    const memoryDb = new Database(':memory:');
    applyMigrations(memoryDb, MIGRATIONS);
    const memoryStore = new Store(memoryDb, { writeEventsInBackground: true });
    stores.push(memoryStore);
    const session = newSession(memoryStore).id;
    memoryStore.queueEvent(messageEvent(session, 'here'), () => undefined);
    expect(await commitInBackground(memoryStore).answered).toEqual({ answeredWithinTheCall: true });
  });
});

describe('the event bus over a store writing in the background', () => {
  it('shows every event once committed, in emit order, and a run end before its emitter resumes', async () => {
    const { store, dataDir } = await backgroundStore();
    const session = newSession(store).id;
    const bus = new EventBus(store, new SecretRedactor());
    const seen: CoreEvent[] = [];
    const committedWhenSeen: number[] = [];
    bus.subscribe((event) => {
      seen.push(event);
      if (event.seq % 200 === 0) committedWhenSeen.push(committedSeqs(dataDir, session).length);
    });
    const inputs: CoreEventInput[] = [];
    for (let index = 0; index < 1200; index += 1) {
      inputs.push(
        index % 3 === 0
          ? {
              type: 'tool',
              sessionId: session,
              callId: `c${index}`,
              name: 'bash',
              args: {},
              status: 'done',
              output: 'ok',
            }
          : { type: 'message', sessionId: session, messageId: 'r', role: 'assistant', text: `t${index} `, delta: true },
      );
    }
    for (const [index, input] of inputs.entries()) {
      bus.emit(input);
      if (index % 40 === 39) await new Promise((resolve) => setImmediate(resolve));
    }
    bus.emit({ type: 'done', sessionId: session, status: 'finished', result: 'all done' });
    await null;

    // the end of the run is shown before the emitter goes on, after everything emitted before it
    expect(seen.map((event) => event.seq)).toEqual(Array.from({ length: 1201 }, (_, index) => index + 1));
    expect(seen.at(-1)).toMatchObject({ type: 'done' });
    // and each was committed before anyone was shown it
    committedWhenSeen.forEach((committed, index) => expect(committed).toBeGreaterThanOrEqual((index + 1) * 200));
    expect(store.writesEventsInBackground).toBe(true);
  });
});
