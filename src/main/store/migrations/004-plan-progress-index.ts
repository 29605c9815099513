/**
 * The plan and step events of a session, findable without reading its other events: a session opens with its
 * plan whole however many events came after the plan (issue 16). Partial, so appends of other events pay nothing.
 */
export const planProgressIndexSchema = `
CREATE INDEX events_plan_progress ON events (session_id, seq) WHERE type IN ('plan', 'step');
`;
