import type { SessionInfo, SessionMode, SessionStatus } from '../../shared/events.js';

/** A `sessions` row as SQLite returns it. */
export interface SessionRow {
  id: string;
  title: string;
  status: SessionStatus;
  mode: SessionMode;
  model: string;
  workspace: string;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cost: number | null;
  created_at: number;
  updated_at: number;
}

export const SESSION_COLUMNS =
  'id, title, status, mode, model, workspace, prompt_tokens, completion_tokens, total_tokens, cost, created_at, updated_at';

export function sessionFromRow(row: SessionRow): SessionInfo {
  return {
    id: row.id,
    title: row.title,
    status: row.status,
    mode: row.mode,
    model: row.model,
    workspace: row.workspace,
    usage: {
      promptTokens: row.prompt_tokens,
      completionTokens: row.completion_tokens,
      totalTokens: row.total_tokens,
      ...(row.cost === null ? {} : { cost: row.cost }),
    },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
