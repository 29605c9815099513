import type { CoreEvent } from '../../shared/events.js';
import type { SqliteDatabase } from './database.js';
import { isSearchable } from './searchable-text.js';

/** An event as one row: the validated event and its JSON, written once. */
export interface EventRow {
  event: CoreEvent;
  json: string;
}

/**
 * Rows per INSERT statement: one statement for many rows saves the per-statement round trip into SQLite that
 * dominates a group commit of small events; 999 bound variables is SQLite's oldest limit (5 per row).
 */
export const ROWS_PER_STATEMENT = 32;

/** Inserts event rows, several per statement, and queues the searchable ones (`isSearchable`) for the search index. */
export class EventRowWriter {
  /** one prepared INSERT per row count used, prepared the first time that count is written */
  private readonly insertStatements = new Map<number, ReturnType<SqliteDatabase['prepare']>>();
  private readonly queueForIndex;

  constructor(private readonly db: SqliteDatabase) {
    this.queueForIndex = db.prepare<[string, number]>('INSERT INTO message_fts_queue (session_id, seq) VALUES (?, ?)');
  }

  /**
   * Writes the rows in statements of up to ROWS_PER_STATEMENT (call inside a transaction). A statement that fails
   * is undone whole (SQLite's statement rollback): the error names the first row not written.
   */
  insert(rows: readonly EventRow[]): void {
    for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
      const chunk = rows.slice(start, start + ROWS_PER_STATEMENT);
      try {
        this.insertStatement(chunk.length).run(chunk.flatMap(columnsOf));
      } catch (error) {
        throw new EventRowsNotWrittenError(start, error);
      }
      // whole messages and questions (deltas are not searchable): queued here rather than by a trigger that would
      // parse the JSON of every streamed delta to find out
      for (const { event } of chunk) if (isSearchable(event)) this.queueForIndex.run(event.sessionId, event.seq);
    }
  }

  private insertStatement(rowCount: number) {
    let statement = this.insertStatements.get(rowCount);
    if (!statement) {
      const values = Array.from({ length: rowCount }, () => '(?, ?, ?, ?, ?)').join(', ');
      statement = this.db.prepare(`INSERT INTO events (session_id, seq, type, ts, json) VALUES ${values}`);
      this.insertStatements.set(rowCount, statement);
    }
    return statement;
  }
}

function columnsOf({ event, json }: EventRow): unknown[] {
  return [event.sessionId, event.seq, event.type, event.ts, json];
}

/** A statement of `EventRowWriter.insert` failed; rows before `firstUnwritten` are in, none after. */
export class EventRowsNotWrittenError extends Error {
  constructor(
    readonly firstUnwritten: number,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}
