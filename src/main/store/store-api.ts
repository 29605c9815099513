import type { KnowledgeStore } from './knowledge-store.js';
import type {
  CoreEvent,
  CoreEventInput,
  SessionInfo,
  SessionMode,
  SessionStatus,
  UsageTotals,
} from '../../shared/events.js';
import type { ChatMessage } from '../../shared/chat-message.js';
import type { PlanStore } from './plan-store.js';
import type { EventOutline } from '../../shared/contract/event-window.js';

export interface NewSession {
  id?: string;
  title: string;
  mode: SessionMode;
  model: string;
  workspace: string;
  status?: SessionStatus;
  agents?: string[];
  parallel?: number;
}

export type SessionPatch = Partial<
  Pick<SessionInfo, 'title' | 'status' | 'mode' | 'model' | 'workspace' | 'agents' | 'parallel'>
> & {
  usage?: UsageTotals;
};

export interface SessionSearchHit {
  session: SessionInfo;
  /** a short excerpt around the match, with the match in «» */
  snippet: string;
}

export interface ListSessionsOptions {
  limit?: number;
  offset?: number;
  status?: SessionStatus;
}

/** Event as handed to the store: stamped with ts, without seq. */
export type UnsequencedEvent = CoreEventInput & { ts: number };

/**
 * The persistence the core depends on. One writer (the process that opened it), WAL, prepared statements.
 * Implemented by `Store` in store.ts over better-sqlite3.
 */
export interface SessionStore {
  /** the sessions' plans, in the same database (one writer per file) */
  readonly plans: PlanStore;
  /** the folders indexed for search and their passages, in the same database */
  readonly knowledge: KnowledgeStore;

  createSession(session: NewSession): SessionInfo;
  getSession(id: string): SessionInfo | undefined;
  /** newest first (by updatedAt) */
  listSessions(options?: ListSessionsOptions): SessionInfo[];
  updateSession(id: string, patch: SessionPatch): SessionInfo;
  /** deletes the session's rows (events, memory, plans...); the workspace folder is the caller's */
  deleteSession(id: string): void;
  /** SQLite's data_version: changes when another connection (another process, the writer thread) commits */
  dataVersion(): number;
  /** full-text search over titles and message text */
  searchSessions(query: string, limit?: number): SessionSearchHit[];
  /** sessions left live (`running`, `waiting`) by a process that died become `interrupted`; returns their ids */
  markRunningAsInterrupted(): string[];
  /** runs `work` holding the database's write lock: the same call in another process waits (e.g. to take a run lock) */
  exclusive<T>(work: () => T): T;

  /** appends atomically in its own transaction, assigning the next per-session seq; returns the stored event */
  appendEvent(event: UnsequencedEvent): CoreEvent;
  /**
   * Group commit: validates and sequences the event now (an invalid one throws here), keeps it in memory until
   * `commitQueued` (or any read of events, a search, a delete or `close`) writes the queue in one transaction, then
   * hands `onStored` the event as stored. Returns the event as queued.
   */
  queueEvent(event: UnsequencedEvent, onStored: (stored: CoreEvent) => void): CoreEvent;
  /** writes every queued event in one transaction (after any batch still in the background); when it throws none of them was written */
  commitQueued(): void;
  /**
   * `commitQueued` without waiting for it when the store writes events in the background (`writeEventsInBackground`):
   * `onCommitted` runs once the batch is committed (here and now otherwise), `onFailed` when none of it was written.
   * Batches commit in order, and any read or `commitQueued` waits for those posted before it.
   */
  commitQueuedInBackground(onCommitted: () => void, onFailed: (error: Error) => void): void;
  /** commits the queue first: what was queued is read back */
  listEvents(sessionId: string, options?: { afterSeq?: number; limit?: number }): CoreEvent[];
  /** the last `limit` events before `beforeSeq` (all when unset), oldest first; read backwards along the key */
  listEventsBefore(sessionId: string, options: { beforeSeq?: number; limit: number }): CoreEvent[];
  /** the session row, its seq range and its plan, without reading its other events; undefined: no such session */
  eventOutline(sessionId: string): EventOutline | undefined;

  /** an agent's LLM memory is append-only; `replaceMemory` rewrites it (after compaction); both commit queued events first */
  appendMemory(sessionId: string, agent: string, messages: ChatMessage[]): void;
  replaceMemory(sessionId: string, agent: string, messages: ChatMessage[]): void;
  loadMemory(sessionId: string, agent: string): ChatMessage[];

  getSetting<T = unknown>(key: string): T | undefined;
  setSetting(key: string, value: unknown): void;
  deleteSetting(key: string): void;
  listSettings(): Record<string, unknown>;
  /** copies a setting's stored text, as it is, to a file next to the database (once per content); its path */
  backupSetting(key: string): string | undefined;

  close(): void;
}
