import type { CoreEvent } from '../../../shared/events.js';
import type { OpenDatabaseOptions, SqliteDatabase } from '../database.js';
import { EventBatchWriter } from './event-batch-writer.js';
import { packRows, type EventRow } from './event-rows.js';
import { EventWriterThread, type BatchOutcome } from './event-writer-thread.js';

/** An event validated, sequenced and written as JSON, waiting for the next group commit. */
export interface QueuedEvent {
  event: CoreEvent;
  json: string;
  /** search indexes it (`isSearchable`) */
  searchable: boolean;
  onStored: (stored: CoreEvent) => void;
}

function rowOf({ event, json, searchable }: QueuedEvent): EventRow {
  return { sessionId: event.sessionId, seq: event.seq, type: event.type, ts: event.ts, json, searchable };
}

/**
 * Background batches the writer thread may hold at once: one written while the next waits, so it never idles while
 * the main thread runs; further commits wait and go together once one is answered (a busier run, larger batches).
 */
export const MAX_BATCHES_IN_FLIGHT = 2;

/** What to tell the caller of a background commit once its events are in, or not. */
interface CommitCallbacks {
  onCommitted: () => void;
  onFailed: (error: Error) => void;
}

export interface EventQueueOptions extends OpenDatabaseOptions {
  /** background commits go to a writer thread of their own (see `EventWriterThread`) */
  writeInBackground?: boolean;
}

export interface EventQueueHooks {
  /** the last seq the database holds for a session (throws when there is no such session) */
  lastStoredSeq(sessionId: string): number;
  /** this many searchable events were written on the store's own connection, and wait for the search index */
  searchableWritten(count: number): void;
}

/**
 * Events waiting for their group commit, the per-session seq counters that ran ahead of the database for them, and
 * how their batches are written: on the store's connection, or by the writer thread while the main thread goes on.
 */
export class EventQueue {
  /** last seq given per session; seeded from the database the first time a session is appended to */
  private readonly lastSeq = new Map<string, number>();
  private queued: QueuedEvent[] = [];
  private readonly batches: EventBatchWriter;
  /** undefined until the first background commit starts it; null when it cannot run here */
  private writerThread: EventWriterThread | null | undefined;
  /** background commits waiting for the thread to have room: their events stay queued and go in its next batch */
  private heldCommits: CommitCallbacks[] = [];

  constructor(
    private readonly db: SqliteDatabase,
    private readonly options: EventQueueOptions,
    private readonly hooks: EventQueueHooks,
  ) {
    this.batches = new EventBatchWriter(db);
    if (options.writeInBackground && db.memory) this.writerThread = null;
  }

  /** The seq the session's next event takes. */
  nextSeq(sessionId: string): number {
    return (this.lastSeq.get(sessionId) ?? this.hooks.lastStoredSeq(sessionId)) + 1;
  }

  /** Queues an event sequenced with `nextSeq`. */
  push(entry: QueuedEvent): void {
    this.queued.push(entry);
    this.lastSeq.set(entry.event.sessionId, entry.event.seq);
  }

  /** the session is gone: its counter with it */
  forgetSession(sessionId: string): void {
    this.lastSeq.delete(sessionId);
  }

  /** whether background commits go to the writer thread now (it started and opened the database) */
  get writesInBackground(): boolean {
    return this.writerThread?.ready === true;
  }

  /** Writes the queue on the store's connection, after any batch the thread still holds; throws when none was written. */
  commit(): void {
    // batches the writer thread still holds go first: whatever follows on this connection comes after them
    this.writerThread?.settle();
    if (this.queued.length === 0) return;
    const batch = this.takeQueued();
    let seqs: number[];
    try {
      seqs = this.batches.write(batch.map(rowOf));
    } catch (error) {
      this.forgetCounters(batch);
      throw error;
    }
    this.noteWritten(batch, seqs);
    this.hooks.searchableWritten(batch.filter(({ searchable }) => searchable).length);
  }

  /** `commit` on the writer thread when it runs (see `SessionStore.commitQueuedInBackground`), here and now otherwise. */
  commitInBackground(onCommitted: () => void, onFailed: (error: Error) => void): void {
    // a bus commits with the same callbacks each time: held once, they are told once
    const alreadyHeld = this.heldCommits.some(
      (commit) => commit.onCommitted === onCommitted && commit.onFailed === onFailed,
    );
    if (!alreadyHeld) this.heldCommits.push({ onCommitted, onFailed });
    const thread = this.startedWriterThread();
    if (thread?.ready) {
      if (thread.inFlight < MAX_BATCHES_IN_FLIGHT) this.postQueued(thread);
      return;
    }
    const commits = this.takeHeldCommits();
    try {
      this.commit();
    } catch (error) {
      for (const commit of commits) commit.onFailed(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    for (const commit of commits) commit.onCommitted();
  }

  /** Commits what is queued, then closes the writer thread (its connection first: the store's, closed last, checkpoints). */
  close(): void {
    this.commit();
    this.writerThread?.close();
    this.writerThread = null;
  }

  /** The queue as the thread's next batch, with the commits held for it; those with nothing left are done. */
  private postQueued(thread: EventWriterThread): void {
    const commits = this.takeHeldCommits();
    if (this.queued.length === 0) {
      // a read committed their events meanwhile
      for (const commit of commits) commit.onCommitted();
      return;
    }
    const batch = this.takeQueued();
    // the thread indexes the searchable ones for search, as it writes them
    thread.write(packRows(batch), (outcome: BatchOutcome) => {
      if (outcome.written) this.noteWritten(batch, outcome.seqs ?? batch.map(({ event }) => event.seq));
      else this.forgetCounters(batch);
      for (const commit of commits) {
        if (outcome.written) commit.onCommitted();
        else commit.onFailed(outcome.error);
      }
      // room again: what was held meanwhile goes now, as one batch
      if (this.heldCommits.length > 0 && thread.ready) this.postQueued(thread);
    });
  }

  private takeHeldCommits(): CommitCallbacks[] {
    const commits = this.heldCommits;
    this.heldCommits = [];
    return commits;
  }

  private takeQueued(): QueuedEvent[] {
    const batch = this.queued;
    this.queued = [];
    return batch;
  }

  /** none of the batch was written: the counters ran ahead of the database and are seeded again from it */
  private forgetCounters(batch: readonly QueuedEvent[]): void {
    for (const { event } of batch) this.lastSeq.delete(event.sessionId);
  }

  /** The batch is in, each row at its seq (moved past another process's events, when that one took it). */
  private noteWritten(batch: readonly QueuedEvent[], seqs: readonly number[]): void {
    batch.forEach(({ event, onStored }, index) => {
      const seq = seqs[index]!;
      const stored = seq === event.seq ? event : { ...event, seq };
      // later batches may already be queued past it: the counter only moves forward
      if (seq > (this.lastSeq.get(event.sessionId) ?? 0)) this.lastSeq.set(event.sessionId, seq);
      onStored(stored);
    });
  }

  private startedWriterThread(): EventWriterThread | null | undefined {
    if (!this.options.writeInBackground || this.writerThread === null || !this.db.open) return this.writerThread;
    this.writerThread ??=
      EventWriterThread.start(this.db.name, this.options, (reason) => {
        this.writerThread = null;
        process.emitWarning(`Events are written on the main thread: the event writer thread cannot run (${reason})`);
      }) ?? null;
    return this.writerThread;
  }
}
