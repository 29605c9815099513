import type { SqliteDatabase } from '../database.js';

/**
 * An event as one row: its key, its JSON written once, and whether search indexes it (`isSearchable`, decided where
 * the event was validated). Plain data, so a batch crosses to the event writer thread without its events.
 */
export interface EventRow {
  sessionId: string;
  seq: number;
  type: string;
  ts: number;
  json: string;
  searchable: boolean;
}

/**
 * Rows per INSERT statement: one statement for many rows saves the per-statement round trip into SQLite that
 * dominates a group commit of small events; 999 bound variables is SQLite's oldest limit (5 per row).
 */
export const ROWS_PER_STATEMENT = 32;

/** Inserts event rows, several per statement, and queues the searchable ones for the search index. */
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
      const end = Math.min(rows.length, start + ROWS_PER_STATEMENT);
      const columns: unknown[] = [];
      for (let index = start; index < end; index += 1) {
        const row = rows[index]!;
        columns.push(row.sessionId, row.seq, row.type, row.ts, row.json);
      }
      try {
        this.insertStatement(end - start).run(columns);
      } catch (error) {
        throw new EventRowsNotWrittenError(start, error);
      }
      // whole messages and questions (deltas are not searchable): queued here rather than by a trigger that would
      // parse the JSON of every streamed delta to find out
      for (let index = start; index < end; index += 1) {
        const row = rows[index]!;
        if (row.searchable) this.queueForIndex.run(row.sessionId, row.seq);
      }
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

/** A statement of `EventRowWriter.insert` failed; rows before `firstUnwritten` are in, none after. */
export class EventRowsNotWrittenError extends Error {
  constructor(
    readonly firstUnwritten: number,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/** Fields per row in a packed batch. */
const PACKED_FIELDS = 6;

/** What a packed row is made from: the event (its key and type), its JSON, and whether search indexes it. */
export interface RowSource {
  event: { sessionId: string; seq: number; type: string; ts: number };
  json: string;
  searchable: boolean;
}

/** Rows as one flat array of their fields: what crosses to the writer thread (cheaper to copy than objects). */
export function packRows(sources: readonly RowSource[]): unknown[] {
  const packed: unknown[] = [];
  for (const { event, json, searchable } of sources) {
    packed.push(event.sessionId, event.seq, event.type, event.ts, json, searchable);
  }
  return packed;
}

/** `packRows` undone; throws when the array is not a whole number of well-typed rows. */
export function unpackRows(packed: readonly unknown[]): EventRow[] {
  if (packed.length % PACKED_FIELDS !== 0)
    throw new Error(`a packed batch of ${packed.length} fields is not whole rows`);
  const rows: EventRow[] = [];
  for (let index = 0; index < packed.length; index += PACKED_FIELDS) {
    const [sessionId, seq, type, ts, json, searchable] = packed.slice(index, index + PACKED_FIELDS);
    if (
      typeof sessionId !== 'string' ||
      typeof seq !== 'number' ||
      typeof type !== 'string' ||
      typeof ts !== 'number' ||
      typeof json !== 'string' ||
      typeof searchable !== 'boolean'
    ) {
      throw new Error(`row ${index / PACKED_FIELDS} of a packed batch has a field of the wrong type`);
    }
    rows.push({ sessionId, seq, type, ts, json, searchable });
  }
  return rows;
}
