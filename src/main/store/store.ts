import { createHash, randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import {
  CoreEventSchema,
  SessionInfoSchema,
  SessionModeSchema,
  SessionStatusSchema,
  UsageTotalsSchema,
  type CoreEvent,
  type SessionInfo,
} from '../../shared/events.js';
import { ChatMessageSchema, type ChatMessage } from '../../shared/chat-message.js';
import { EventQueue } from './event-log/event-queue.js';
import { openDatabase, type OpenDatabaseOptions, type SqliteDatabase } from './database.js';
import { MIGRATIONS } from './migrations/index.js';
import { SessionSearch } from './session-search.js';
import { isSearchable } from './searchable-text.js';
import { SqlitePlanStore, type PlanStore } from './plan-store.js';
import { KnowledgeStore } from './knowledge-store.js';
import { SESSION_COLUMNS, sessionFromColumns, type SessionColumns } from './session-row.js';
import { InvalidRecordError, SessionNotFoundError, isSqliteError } from './store-errors.js';
import type {
  ListSessionsOptions,
  NewSession,
  SessionPatch,
  SessionSearchHit,
  SessionStore,
  UnsequencedEvent,
} from './store-api.js';
import type { EventOutline } from '../../shared/contract/event-window.js';

const DEFAULT_SEARCH_LIMIT = 20;
// SQLite reads a negative LIMIT as "no limit"
const NO_LIMIT = -1;

const NewSessionSchema = z.object({
  id: z.string().min(1).optional(),
  title: z.string(),
  mode: SessionModeSchema,
  model: z.string(),
  workspace: z.string(),
  status: SessionStatusSchema.optional(),
  agents: SessionInfoSchema.shape.agents,
  parallel: SessionInfoSchema.shape.parallel,
});

const SessionPatchSchema = z.object({
  title: z.string().optional(),
  status: SessionStatusSchema.optional(),
  mode: SessionModeSchema.optional(),
  model: z.string().optional(),
  workspace: z.string().optional(),
  agents: SessionInfoSchema.shape.agents,
  parallel: SessionInfoSchema.shape.parallel,
  usage: UsageTotalsSchema.optional(),
});

function describeIssues(error: z.ZodError): string {
  return z.prettifyError(error).replaceAll('\n', '; ');
}

export interface StoreOptions extends OpenDatabaseOptions {
  /**
   * Event batches committed with `commitQueuedInBackground` are written by a thread of their own (a long-lived
   * process with runs to show: the app, `serve`, `run`), so SQLite's work overlaps the run's.
   */
  writeEventsInBackground?: boolean;
}

function toJson(value: unknown, what: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new InvalidRecordError(what, `it cannot be written as JSON (${(error as Error).message})`);
  }
  if (json === undefined) throw new InvalidRecordError(what, 'it cannot be written as JSON');
  return json;
}

/** The SQLite-backed `SessionStore`: one writer per database file, statements prepared once. */
export class Store implements SessionStore {
  private readonly search: SessionSearch;
  private readonly events: EventQueue;
  private readonly sql;
  readonly plans: PlanStore;
  /** the folders indexed for search_files and their passages */
  readonly knowledge: KnowledgeStore;

  constructor(
    readonly db: SqliteDatabase,
    private readonly options: StoreOptions = {},
  ) {
    this.plans = new SqlitePlanStore(db);
    this.knowledge = new KnowledgeStore(db);
    this.search = new SessionSearch(db);
    // messages a killed process queued but never indexed
    this.search.indexQueue.flushIfQueued();
    this.sql = {
      insertSession: db
        .prepare<
          [string, string, string, string, string, string, string | null, number | null, number, number],
          SessionColumns
        >(
          `INSERT INTO sessions (id, title, status, mode, model, workspace, agents, parallel, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${SESSION_COLUMNS}`,
        )
        .raw(),
      getSession: db.prepare<[string], SessionColumns>(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`).raw(),
      listSessions: db
        .prepare<[number, number], SessionColumns>(
          `SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY updated_at DESC, id LIMIT ? OFFSET ?`,
        )
        .raw(),
      listSessionsByStatus: db
        .prepare<[string, number, number], SessionColumns>(
          `SELECT ${SESSION_COLUMNS} FROM sessions WHERE status = ? ORDER BY updated_at DESC, id LIMIT ? OFFSET ?`,
        )
        .raw(),
      updateSession: db
        .prepare<Record<string, string | number | null>, SessionColumns>(
          `UPDATE sessions SET
           title = coalesce(@title, title),
           status = coalesce(@status, status),
           mode = coalesce(@mode, mode),
           model = coalesce(@model, model),
           workspace = coalesce(@workspace, workspace),
           agents = coalesce(@agents, agents),
           parallel = coalesce(@parallel, parallel),
           prompt_tokens = coalesce(@promptTokens, prompt_tokens),
           completion_tokens = coalesce(@completionTokens, completion_tokens),
           total_tokens = coalesce(@totalTokens, total_tokens),
           cost = CASE WHEN @hasUsage THEN @cost ELSE cost END,
           updated_at = @now
         WHERE id = @id RETURNING ${SESSION_COLUMNS}`,
        )
        .raw(),
      deleteSession: db.prepare<[string]>('DELETE FROM sessions WHERE id = ?'),
      markInterrupted: db
        .prepare<[number], string>(
          `UPDATE sessions SET status = 'interrupted', updated_at = ? WHERE status IN ('running', 'waiting') RETURNING id`,
        )
        .pluck(),
      maxSeq: db.prepare<[string], number>('SELECT coalesce(max(seq), 0) FROM events WHERE session_id = ?').pluck(),
      sessionExists: db.prepare<[string], number>('SELECT EXISTS (SELECT 1 FROM sessions WHERE id = ?)').pluck(),
      listEvents: db
        .prepare<[string, number, number], string>(
          'SELECT json FROM events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?',
        )
        .pluck(),
      listEventsBefore: db
        .prepare<[string, number, number], string>(
          'SELECT json FROM events WHERE session_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?',
        )
        .pluck(),
      seqRange: db.prepare<{ id: string }, { firstSeq: number | null; lastSeq: number | null }>(
        // one aggregate per subquery: SQLite reads each end of the key instead of the whole range
        `SELECT (SELECT min(seq) FROM events WHERE session_id = @id) AS firstSeq,
                (SELECT max(seq) FROM events WHERE session_id = @id) AS lastSeq`,
      ),
      latestPlanSeq: db
        .prepare<[string], number>(
          `SELECT seq FROM events INDEXED BY events_plan_progress
           WHERE session_id = ? AND type IN ('plan', 'step') AND type = 'plan' ORDER BY seq DESC LIMIT 1`,
        )
        .pluck(),
      planProgressFrom: db
        .prepare<[string, number], string>(
          `SELECT json FROM events INDEXED BY events_plan_progress
           WHERE session_id = ? AND type IN ('plan', 'step') AND seq >= ? ORDER BY seq`,
        )
        .pluck(),
      nextMemoryIndex: db
        .prepare<[string, string], number>(
          'SELECT coalesce(max(idx) + 1, 0) FROM agent_memory WHERE session_id = ? AND agent = ?',
        )
        .pluck(),
      insertMemory: db.prepare<[string, string, number, string]>(
        'INSERT INTO agent_memory (session_id, agent, idx, json) VALUES (?, ?, ?, ?)',
      ),
      clearMemory: db.prepare<[string, string]>('DELETE FROM agent_memory WHERE session_id = ? AND agent = ?'),
      loadMemory: db
        .prepare<[string, string], string>(
          'SELECT json FROM agent_memory WHERE session_id = ? AND agent = ? ORDER BY idx',
        )
        .pluck(),
      getSetting: db.prepare<[string], string>('SELECT json FROM settings WHERE key = ?').pluck(),
      setSetting: db.prepare<[string, string]>(
        'INSERT INTO settings (key, json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET json = excluded.json',
      ),
      deleteSetting: db.prepare<[string]>('DELETE FROM settings WHERE key = ?'),
      listSettings: db.prepare<[], { key: string; json: string }>('SELECT key, json FROM settings ORDER BY key'),
    };
    this.events = new EventQueue(
      db,
      { nativeBinding: options.nativeBinding, writeInBackground: options.writeEventsInBackground },
      {
        lastStoredSeq: (sessionId) => {
          // checked once per session, so that a queued event for a missing session fails its caller, not a later batch
          if (!this.sql.sessionExists.get(sessionId)) throw new SessionNotFoundError(sessionId);
          return this.sql.maxSeq.get(sessionId) ?? 0;
        },
        searchableWritten: (count) => this.search.indexQueue.noteQueued(count),
      },
    );
  }

  createSession(session: NewSession): SessionInfo {
    const parsed = NewSessionSchema.safeParse(session);
    if (!parsed.success) throw new InvalidRecordError('session', describeIssues(parsed.error));
    const { id = randomUUID(), title, status = 'idle', mode, model, workspace, agents, parallel } = parsed.data;
    const now = Date.now();
    try {
      const row = this.sql.insertSession.get(
        id,
        title,
        status,
        mode,
        model,
        workspace,
        agents ? JSON.stringify(agents) : null,
        parallel ?? null,
        now,
        now,
      );
      return sessionFromColumns(row as SessionColumns);
    } catch (error) {
      if (isSqliteError(error, 'SQLITE_CONSTRAINT_PRIMARYKEY')) {
        throw new InvalidRecordError('session', `a session with id "${id}" already exists`);
      }
      throw error;
    }
  }

  getSession(id: string): SessionInfo | undefined {
    const row = this.sql.getSession.get(id);
    return row && sessionFromColumns(row);
  }

  listSessions(options: ListSessionsOptions = {}): SessionInfo[] {
    const limit = options.limit ?? NO_LIMIT;
    const offset = options.offset ?? 0;
    const rows =
      options.status === undefined
        ? this.sql.listSessions.all(limit, offset)
        : this.sql.listSessionsByStatus.all(options.status, limit, offset);
    return rows.map(sessionFromColumns);
  }

  updateSession(id: string, patch: SessionPatch): SessionInfo {
    const parsed = SessionPatchSchema.safeParse(patch);
    if (!parsed.success) throw new InvalidRecordError('session change', describeIssues(parsed.error));
    const { title, status, mode, model, workspace, agents, parallel, usage } = parsed.data;
    const row = this.sql.updateSession.get({
      id,
      title: title ?? null,
      status: status ?? null,
      mode: mode ?? null,
      model: model ?? null,
      workspace: workspace ?? null,
      agents: agents ? JSON.stringify(agents) : null,
      parallel: parallel ?? null,
      promptTokens: usage?.promptTokens ?? null,
      completionTokens: usage?.completionTokens ?? null,
      totalTokens: usage?.totalTokens ?? null,
      hasUsage: usage ? 1 : 0,
      cost: usage?.cost ?? null,
      now: Date.now(),
    });
    if (!row) throw new SessionNotFoundError(id);
    return sessionFromColumns(row);
  }

  /** Removes the session and, by cascade and triggers, its events, memory and search entries. Unknown ids are a no-op. */
  deleteSession(id: string): void {
    this.commitQueued();
    this.sql.deleteSession.run(id);
    this.events.forgetSession(id);
  }

  searchSessions(query: string, limit = DEFAULT_SEARCH_LIMIT): SessionSearchHit[] {
    this.commitQueued();
    const hits: SessionSearchHit[] = [];
    for (const match of this.search.search(query, limit)) {
      const session = this.getSession(match.sessionId);
      if (session) hits.push({ session, snippet: match.snippet });
    }
    return hits;
  }

  /** Call once at start-up, before this process runs anything: every `running` session belonged to a dead process. */
  markRunningAsInterrupted(): string[] {
    return this.sql.markInterrupted.all(Date.now());
  }

  /** Commits the event (and any queued before it) before returning: a process killed right after loses none of them. */
  appendEvent(event: UnsequencedEvent): CoreEvent {
    let stored: CoreEvent | undefined;
    this.queueEvent(event, (committed) => (stored = committed));
    this.commitQueued();
    return stored!;
  }

  queueEvent(event: UnsequencedEvent, onStored: (stored: CoreEvent) => void): CoreEvent {
    const sessionId: unknown = event?.sessionId;
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw new InvalidRecordError(`${event?.type} event`, 'it names no sessionId');
    }
    const queued = this.sequenced(event, this.events.nextSeq(sessionId));
    this.events.push({ event: queued, json: toJson(queued, 'event'), searchable: isSearchable(queued), onStored });
    return queued;
  }

  commitQueued(): void {
    this.events.commit();
  }

  /** whether batches committed in the background go to the writer thread now (it started and opened the database) */
  get writesEventsInBackground(): boolean {
    return this.events.writesInBackground;
  }

  commitQueuedInBackground(onCommitted: () => void, onFailed: (error: Error) => void): void {
    this.events.commitInBackground(onCommitted, onFailed);
  }

  listEvents(sessionId: string, options: { afterSeq?: number; limit?: number } = {}): CoreEvent[] {
    this.commitQueued();
    const rows = this.sql.listEvents.all(sessionId, options.afterSeq ?? 0, options.limit ?? NO_LIMIT);
    return rows.map((json) => JSON.parse(json) as CoreEvent);
  }

  listEventsBefore(sessionId: string, options: { beforeSeq?: number; limit: number }): CoreEvent[] {
    this.commitQueued();
    const rows = this.sql.listEventsBefore.all(sessionId, options.beforeSeq ?? Number.MAX_SAFE_INTEGER, options.limit);
    return rows.reverse().map((json) => JSON.parse(json) as CoreEvent);
  }

  eventOutline(sessionId: string): EventOutline | undefined {
    this.commitQueued();
    const session = this.getSession(sessionId);
    if (!session) return undefined;
    const range = this.sql.seqRange.get({ id: sessionId });
    const firstSeq = range?.firstSeq ?? 0;
    const lastSeq = range?.lastSeq ?? 0;
    const planSeq = this.sql.latestPlanSeq.get(sessionId);
    const planEvents = planSeq === undefined ? [] : this.sql.planProgressFrom.all(sessionId, planSeq);
    return {
      session,
      firstSeq,
      lastSeq,
      // seqs run 1, 2, 3... per session and events are never deleted one by one: the range is the count
      eventCount: lastSeq === 0 ? 0 : lastSeq - firstSeq + 1,
      planEvents: planEvents.map((json) => JSON.parse(json) as CoreEvent),
    };
  }

  exclusive<T>(work: () => T): T {
    // BEGIN IMMEDIATE: the write lock is taken at once, so two processes cannot both read before either writes
    return this.db.transaction(work).immediate();
  }

  appendMemory(sessionId: string, agent: string, messages: ChatMessage[]): void {
    const rows = this.memoryRows(messages);
    // events emitted before this memory are written before it: after a crash, memory never runs ahead of the log
    this.commitQueued();
    this.db.transaction(() => {
      const first = this.sql.nextMemoryIndex.get(sessionId, agent) ?? 0;
      this.insertMemoryRows(sessionId, agent, first, rows);
    })();
  }

  replaceMemory(sessionId: string, agent: string, messages: ChatMessage[]): void {
    const rows = this.memoryRows(messages);
    this.commitQueued();
    this.db.transaction(() => {
      this.sql.clearMemory.run(sessionId, agent);
      this.insertMemoryRows(sessionId, agent, 0, rows);
    })();
  }

  loadMemory(sessionId: string, agent: string): ChatMessage[] {
    return this.sql.loadMemory.all(sessionId, agent).map((json) => JSON.parse(json) as ChatMessage);
  }

  getSetting<T = unknown>(key: string): T | undefined {
    const json = this.sql.getSetting.get(key);
    return json === undefined ? undefined : (JSON.parse(json) as T);
  }

  setSetting(key: string, value: unknown): void {
    this.sql.setSetting.run(key, toJson(value, `setting "${key}"`));
  }

  deleteSetting(key: string): void {
    this.sql.deleteSetting.run(key);
  }

  backupSetting(key: string): string | undefined {
    const text = this.sql.getSetting.get(key);
    if (text === undefined || this.db.memory) return undefined;
    const digest = createHash('sha256').update(text).digest('hex').slice(0, 12);
    const file = join(dirname(this.db.name), `${key.replace(/[^a-zA-Z0-9_-]/g, '_')}-backup-${digest}.json`);
    // named by its content: reading the same broken settings again does not pile up copies
    if (!existsSync(file)) writeFileSync(file, text, { mode: 0o600 });
    return file;
  }

  listSettings(): Record<string, unknown> {
    const settings: Record<string, unknown> = {};
    for (const row of this.sql.listSettings.all()) settings[row.key] = JSON.parse(row.json);
    return settings;
  }

  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  close(): void {
    if (!this.db.open) return;
    this.events.close();
    this.search.indexQueue.flushIfQueued();
    this.db.close();
  }

  /** The event as it will be stored: validated against the shared schema (unknown fields dropped), with its seq. */
  private sequenced(event: UnsequencedEvent, seq: number): CoreEvent {
    const parsed = CoreEventSchema.safeParse({ ...event, ts: event.ts ?? Date.now(), seq });
    if (!parsed.success) throw new InvalidRecordError(`${event.type} event`, describeIssues(parsed.error));
    return parsed.data;
  }

  private memoryRows(messages: ChatMessage[]): string[] {
    return messages.map((message, index) => {
      const parsed = ChatMessageSchema.safeParse(message);
      if (!parsed.success) throw new InvalidRecordError(`memory message #${index}`, describeIssues(parsed.error));
      return toJson(parsed.data, 'memory message');
    });
  }

  private insertMemoryRows(sessionId: string, agent: string, firstIndex: number, rows: string[]): void {
    try {
      rows.forEach((json, offset) => this.sql.insertMemory.run(sessionId, agent, firstIndex + offset, json));
    } catch (error) {
      if (isSqliteError(error, 'SQLITE_CONSTRAINT_FOREIGNKEY')) throw new SessionNotFoundError(sessionId);
      throw error;
    }
  }
}

/** Opens the store in `<dataDir>/manus.db` (created and migrated as needed). */
export function openStore(dataDir: string, options: StoreOptions = {}): Store {
  return new Store(openDatabase(dataDir, MIGRATIONS, options), options);
}
