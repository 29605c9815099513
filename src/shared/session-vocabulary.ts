/** The words a session's status and mode take. No zod here: the renderer's first screen reads them without the schemas. */

/** `waiting`: a run that is alive but paused on a question to the person (back to `running` once answered) */
export const SESSION_STATUSES = [
  'running',
  'waiting',
  'finished',
  'failed',
  'interrupted',
  'cancelled',
  'idle',
] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

/** The statuses of a run that is alive: working, or waiting for the person's answer. */
export const LIVE_SESSION_STATUSES = ['running', 'waiting'] as const satisfies readonly SessionStatus[];

export function isLiveStatus(status: SessionStatus | undefined): boolean {
  return status === 'running' || status === 'waiting';
}

export const SESSION_MODES = ['agent', 'planning', 'plan_act'] as const;
export type SessionMode = (typeof SESSION_MODES)[number];
