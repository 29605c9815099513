/** The words a session's status and mode take. No zod here: the renderer's first screen reads them without the schemas. */

export const SESSION_STATUSES = ['running', 'finished', 'failed', 'interrupted', 'cancelled', 'idle'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const SESSION_MODES = ['agent', 'planning', 'plan_act'] as const;
export type SessionMode = (typeof SESSION_MODES)[number];
