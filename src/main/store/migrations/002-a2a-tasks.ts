/** A2A tasks served by `manus a2a` (the whole task as JSON), and which session each A2A context continues. */
export const a2aTasksSchema = `
CREATE TABLE a2a_tasks (
  id         TEXT PRIMARY KEY,
  context_id TEXT NOT NULL,
  state      INTEGER NOT NULL,
  json       TEXT NOT NULL CHECK (json_valid(json)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX a2a_tasks_by_updated ON a2a_tasks (updated_at DESC, id);
CREATE INDEX a2a_tasks_by_context ON a2a_tasks (context_id, updated_at DESC, id);

CREATE TABLE a2a_contexts (
  context_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL
);
`;
