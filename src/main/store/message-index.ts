import type { CoreEvent } from '../../shared/events.js';
import type { SqliteDatabase } from './database.js';

/** Queued messages are indexed together once this many are waiting (and always before a search). */
export const INDEX_BATCH_SIZE = 1024;

/** Whole messages are searchable, deltas are not. */
export function isIndexedMessage(event: CoreEvent): boolean {
  return event.type === 'message' && !event.delta;
}

/** Moves messages queued as they were written (`EventRowWriter`) into `message_fts`, in one transaction per batch. */
export class MessageIndexQueue {
  private sinceFlush = 0;
  private readonly moveQueued;
  private readonly anyQueued;

  constructor(db: SqliteDatabase) {
    const indexQueued = db.prepare(
      `INSERT INTO message_fts (text, session_id, seq)
       SELECT json_extract(events.json, '$.text'), events.session_id, events.seq
       FROM message_fts_queue AS queue
       JOIN events ON events.session_id = queue.session_id AND events.seq = queue.seq
       ORDER BY queue.id`,
    );
    this.anyQueued = db.prepare('SELECT EXISTS (SELECT 1 FROM message_fts_queue)').pluck();
    const clearQueue = db.prepare('DELETE FROM message_fts_queue');
    this.moveQueued = db.transaction(() => {
      indexQueued.run();
      return clearQueue.run().changes;
    });
  }

  /** Indexes everything queued (by this process or one that died before indexing); returns how many messages. */
  flush(): number {
    const indexed = this.moveQueued.immediate();
    this.sinceFlush = 0;
    return indexed;
  }

  /** `flush` without taking the write lock when nothing waits (searches are frequent, queued messages rare) */
  flushIfQueued(): number {
    return this.anyQueued.get() ? this.flush() : 0;
  }

  noteAppended(event: CoreEvent): void {
    if (!isIndexedMessage(event)) return;
    this.sinceFlush += 1;
    if (this.sinceFlush < INDEX_BATCH_SIZE) return;
    try {
      this.flush();
    } catch {
      // the event itself is committed; its queue entry stays and the next flush (or search) indexes it
    }
  }
}
