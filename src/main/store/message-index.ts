import { CoreEventSchema } from '../../shared/events.js';
import type { SqliteDatabase } from './database.js';
import { searchableText } from './searchable-text.js';

/** Queued messages are indexed together once this many are waiting (and always before a search). */
export const INDEX_BATCH_SIZE = 1024;

interface QueuedRow {
  id: number;
  session_id: string;
  seq: number;
  json: string;
}

/**
 * Moves the events queued as they were written (`EventRowWriter`) into `message_fts` as plain text, a batch per transaction: a queue of any
 * length (a whole history queued again by a migration) is read a batch at a time, never all at once.
 */
export class MessageIndexQueue {
  private sinceFlush = 0;
  private readonly moveBatch;
  private readonly anyQueued;

  constructor(db: SqliteDatabase) {
    const nextBatch = db.prepare<[number], QueuedRow>(
      `SELECT queue.id, queue.session_id, queue.seq, events.json
       FROM message_fts_queue AS queue
       JOIN events ON events.session_id = queue.session_id AND events.seq = queue.seq
       ORDER BY queue.id LIMIT ?`,
    );
    const index = db.prepare<[string, string, number]>(
      'INSERT INTO message_fts (text, session_id, seq) VALUES (?, ?, ?)',
    );
    const dequeue = db.prepare<[number]>('DELETE FROM message_fts_queue WHERE id <= ?');
    this.anyQueued = db.prepare('SELECT EXISTS (SELECT 1 FROM message_fts_queue)').pluck();
    this.moveBatch = db.transaction((): number => {
      const rows = nextBatch.all(INDEX_BATCH_SIZE);
      for (const row of rows) {
        const event = CoreEventSchema.safeParse(JSON.parse(row.json));
        const text = event.success ? searchableText(event.data) : undefined;
        if (text) index.run(text, row.session_id, row.seq);
      }
      // entries whose event is gone (its session deleted) go with the batch
      if (rows.length) dequeue.run(rows.at(-1)!.id);
      else dequeue.run(Number.MAX_SAFE_INTEGER);
      return rows.length;
    });
  }

  /** Indexes everything queued (by this process or one that died before indexing); returns how many events. */
  flush(): number {
    let indexed = 0;
    for (let moved = this.moveBatch.immediate(); moved > 0; moved = this.moveBatch.immediate()) indexed += moved;
    this.sinceFlush = 0;
    return indexed;
  }

  /** `flush` without taking the write lock when nothing waits (searches are frequent, queued messages rare) */
  flushIfQueued(): number {
    return this.anyQueued.get() ? this.flush() : 0;
  }

  /** `count` more searchable events were written (and queued): indexed together once INDEX_BATCH_SIZE wait. */
  noteQueued(count: number): void {
    this.sinceFlush += count;
    if (this.sinceFlush < INDEX_BATCH_SIZE) return;
    try {
      this.flush();
    } catch {
      // the event itself is committed; its queue entry stays and the next flush (or search) indexes it
    }
  }
}
