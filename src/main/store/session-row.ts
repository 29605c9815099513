import type { SessionInfo, SessionMode, SessionStatus } from '../../shared/events.js';

export const SESSION_COLUMNS =
  'id, title, status, mode, model, workspace, prompt_tokens, completion_tokens, total_tokens, cost, created_at, updated_at, agents, parallel';

/**
 * A `sessions` row read in raw mode (an array in SESSION_COLUMNS order): listing 10k sessions spends a third less
 * time than with one keyed object per row.
 */
export type SessionColumns = [
  id: string,
  title: string,
  status: SessionStatus,
  mode: SessionMode,
  model: string,
  workspace: string,
  promptTokens: number,
  completionTokens: number,
  totalTokens: number,
  cost: number | null,
  createdAt: number,
  updatedAt: number,
  /** a JSON array of agent names */
  agents: string | null,
  parallel: number | null,
];

export function sessionFromColumns(row: SessionColumns): SessionInfo {
  const cost = row[9];
  return {
    id: row[0],
    title: row[1],
    status: row[2],
    mode: row[3],
    model: row[4],
    workspace: row[5],
    usage:
      cost === null
        ? { promptTokens: row[6], completionTokens: row[7], totalTokens: row[8] }
        : { promptTokens: row[6], completionTokens: row[7], totalTokens: row[8], cost },
    ...(row[12] === null ? {} : { agents: JSON.parse(row[12]) as string[] }),
    ...(row[13] === null ? {} : { parallel: row[13] }),
    createdAt: row[10],
    updatedAt: row[11],
  };
}
