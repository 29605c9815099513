import type { SqliteDatabase } from '../database.js';
import { EventRowWriter, EventRowsNotWrittenError, type EventRow } from './event-rows.js';
import { SessionNotFoundError, isSqliteError } from '../store-errors.js';

/** The row at another seq: its JSON carries the seq too. */
function movedRow(row: EventRow, seq: number): EventRow {
  const event = JSON.parse(row.json) as { seq: number };
  event.seq = seq;
  return { ...row, seq, json: JSON.stringify(event) };
}

/**
 * Writes a batch of event rows in one transaction holding the write lock (all or nothing). Rows whose seq another
 * process took since this one counted its sessions move up past that process's events. Used by the store on its own
 * connection and by the event writer thread on its one.
 */
export class EventBatchWriter {
  private readonly rows: EventRowWriter;
  private readonly maxSeq;
  private readonly writeBatch;

  constructor(db: SqliteDatabase) {
    this.rows = new EventRowWriter(db);
    this.maxSeq = db.prepare<[string], number>('SELECT coalesce(max(seq), 0) FROM events WHERE session_id = ?').pluck();
    this.writeBatch = db.transaction((batch: readonly EventRow[]) => this.insertBatch(batch));
  }

  /** The seq each row was written at, in order; throws (none written) when the batch cannot be. */
  write(batch: readonly EventRow[]): number[] {
    return this.writeBatch.immediate(batch);
  }

  private insertBatch(batch: readonly EventRow[]): number[] {
    try {
      this.rows.insert(batch);
      return batch.map((row) => row.seq);
    } catch (error) {
      if (!(error instanceof EventRowsNotWrittenError)) throw error;
      // a seq another process took, or a session deleted meanwhile: the rest row by row, to tell which
      const written = batch.slice(0, error.firstUnwritten).map((row) => row.seq);
      return [...written, ...this.insertRowByRow(batch.slice(error.firstUnwritten))];
    }
  }

  private insertRowByRow(batch: readonly EventRow[]): number[] {
    // sessions another process appended to since this one counted them: how far their rows move up
    const shifts = new Map<string, number>();
    return batch.map((row) => {
      let shift = shifts.get(row.sessionId);
      if (shift === undefined) {
        if (this.insertUnlessSeqTaken(row)) return row.seq;
        // the write lock is held, so the last seq read now stays the last until this batch is in
        shift = (this.maxSeq.get(row.sessionId) ?? 0) + 1 - row.seq;
        shifts.set(row.sessionId, shift);
      }
      const moved = movedRow(row, row.seq + shift);
      if (!this.insertUnlessSeqTaken(moved)) {
        throw new Error(
          `seq ${moved.seq} of session ${moved.sessionId} was taken while this process held the write lock`,
        );
      }
      return moved.seq;
    });
  }

  /** false when another process already wrote this seq of the session */
  private insertUnlessSeqTaken(row: EventRow): boolean {
    try {
      this.rows.insert([row]);
      return true;
    } catch (error) {
      const cause = error instanceof EventRowsNotWrittenError ? error.cause : error;
      if (isSqliteError(cause, 'SQLITE_CONSTRAINT_PRIMARYKEY')) return false;
      if (isSqliteError(cause, 'SQLITE_CONSTRAINT_FOREIGNKEY')) throw new SessionNotFoundError(row.sessionId);
      throw cause;
    }
  }
}
