import { Task, TaskState, type ListTasksRequest, type ListTasksResponse } from '@a2a-js/sdk';
import type { ServerCallContext, TaskStore } from '@a2a-js/sdk/server';
import type { SqliteDatabase } from '../store/database.js';

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;
const TERMINAL_STATES = [
  TaskState.TASK_STATE_COMPLETED,
  TaskState.TASK_STATE_FAILED,
  TaskState.TASK_STATE_CANCELED,
  TaskState.TASK_STATE_REJECTED,
];

interface TaskRow {
  json: string;
}

/** A2A tasks in the app's SQLite file (table a2a_tasks, migration 002): they survive a restart of `manus a2a`. */
export class SqliteTaskStore implements TaskStore {
  private readonly sql;

  constructor(private readonly db: SqliteDatabase) {
    this.sql = {
      upsert: db.prepare<[string, string, number, string, number, number]>(
        `INSERT INTO a2a_tasks (id, context_id, state, json, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET context_id = excluded.context_id, state = excluded.state,
           json = excluded.json, updated_at = excluded.updated_at`,
      ),
      load: db.prepare<[string], TaskRow>('SELECT json FROM a2a_tasks WHERE id = ?'),
      sessionOfContext: db
        .prepare<[string], string>('SELECT session_id FROM a2a_contexts WHERE context_id = ?')
        .pluck(),
      rememberContext: db.prepare<[string, string]>(
        'INSERT INTO a2a_contexts (context_id, session_id) VALUES (?, ?) ON CONFLICT (context_id) DO UPDATE SET session_id = excluded.session_id',
      ),
      unfinished: db.prepare<number[], TaskRow>(
        `SELECT json FROM a2a_tasks WHERE state NOT IN (${TERMINAL_STATES.map(() => '?').join(', ')})`,
      ),
    };
  }

  async save(task: Task, _context?: ServerCallContext): Promise<void> {
    const now = Date.now();
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    this.sql.upsert.run(task.id, task.contextId, state, JSON.stringify(Task.toJSON(task)), now, now);
  }

  async load(taskId: string, _context?: ServerCallContext): Promise<Task | undefined> {
    const row = this.sql.load.get(taskId);
    return row ? Task.fromJSON(JSON.parse(row.json)) : undefined;
  }

  async list(params: ListTasksRequest, _context?: ServerCallContext): Promise<ListTasksResponse> {
    const where: string[] = [];
    const values: (string | number)[] = [];
    if (params.contextId) {
      where.push('context_id = ?');
      values.push(params.contextId);
    }
    if (params.status) {
      where.push('state = ?');
      values.push(params.status);
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const pageSize = Math.min(Math.max(params.pageSize ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const offset = Number.parseInt(params.pageToken || '0', 10) || 0;
    const total =
      this.db
        .prepare<unknown[], number>(`SELECT count(*) FROM a2a_tasks ${filter}`)
        .pluck()
        .get(...values) ?? 0;
    const rows = this.db
      .prepare<unknown[], TaskRow>(`SELECT json FROM a2a_tasks ${filter} ORDER BY updated_at DESC, id LIMIT ? OFFSET ?`)
      .all(...values, pageSize, offset);
    const tasks = rows.map((row) => Task.fromJSON(JSON.parse(row.json)));
    const next = offset + rows.length;
    return { tasks, nextPageToken: next < total ? String(next) : '', pageSize, totalSize: total };
  }

  /** The session an A2A context continues (follow-up messages keep the agent's memory). */
  sessionOfContext(contextId: string): string | undefined {
    return this.sql.sessionOfContext.get(contextId);
  }

  rememberContext(contextId: string, sessionId: string): void {
    this.sql.rememberContext.run(contextId, sessionId);
  }

  /** Tasks a previous process left running can never finish: they are marked failed, saying why. */
  async failUnfinished(reason: string): Promise<string[]> {
    const tasks = this.sql.unfinished.all(...TERMINAL_STATES).map((row) => Task.fromJSON(JSON.parse(row.json)));
    for (const task of tasks) {
      await this.save({
        ...task,
        status: { state: TaskState.TASK_STATE_FAILED, timestamp: new Date().toISOString(), message: undefined },
        metadata: { ...task.metadata, failure: reason },
      });
    }
    return tasks.map((task) => task.id);
  }
}
