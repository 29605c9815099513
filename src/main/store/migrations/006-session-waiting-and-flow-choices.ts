/**
 * Sessions get the `waiting` status (a live run paused on a question to the person) and keep a flow's chosen agents
 * and parallel steps. SQLite cannot change a CHECK constraint in place, so the table is rebuilt (with foreign keys
 * off, see `Migration.rebuildsTables`): its triggers go with the old table and are made again, and the events
 * trigger that names `sessions` is set aside while the name is taken over.
 */
export const sessionWaitingAndFlowChoicesSchema = `
DROP TRIGGER events_no_delete;

CREATE TABLE sessions_rebuilt (
  id                TEXT PRIMARY KEY,
  title             TEXT NOT NULL,
  status            TEXT NOT NULL
                    CHECK (status IN ('running', 'waiting', 'finished', 'failed', 'interrupted', 'cancelled', 'idle')),
  mode              TEXT NOT NULL CHECK (mode IN ('agent', 'planning', 'plan_act')),
  model             TEXT NOT NULL,
  workspace         TEXT NOT NULL,
  prompt_tokens     INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  total_tokens      INTEGER NOT NULL DEFAULT 0,
  cost              REAL,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  -- a JSON array of agent names; NULL: the flow's default
  agents            TEXT CHECK (agents IS NULL OR (json_valid(agents) AND json_type(agents) = 'array')),
  parallel          INTEGER CHECK (parallel IS NULL OR parallel > 0)
);

INSERT INTO sessions_rebuilt
  (id, title, status, mode, model, workspace, prompt_tokens, completion_tokens, total_tokens, cost, created_at, updated_at)
SELECT id, title, status, mode, model, workspace, prompt_tokens, completion_tokens, total_tokens, cost, created_at, updated_at
FROM sessions;

DROP TABLE sessions;
ALTER TABLE sessions_rebuilt RENAME TO sessions;

CREATE INDEX sessions_by_updated ON sessions (updated_at DESC, id);
CREATE INDEX sessions_by_status_updated ON sessions (status, updated_at DESC, id);

CREATE TRIGGER events_no_delete BEFORE DELETE ON events
WHEN EXISTS (SELECT 1 FROM sessions WHERE id = OLD.session_id)
BEGIN
  SELECT RAISE(ABORT, 'events are append-only; delete the session instead');
END;

CREATE TRIGGER sessions_index_title AFTER INSERT ON sessions
BEGIN
  INSERT INTO title_fts (title, session_id) VALUES (NEW.title, NEW.id);
END;

CREATE TRIGGER sessions_reindex_title AFTER UPDATE OF title ON sessions
WHEN OLD.title IS NOT NEW.title
BEGIN
  DELETE FROM title_fts WHERE session_id = OLD.id;
  INSERT INTO title_fts (title, session_id) VALUES (NEW.title, NEW.id);
END;

CREATE TRIGGER sessions_unindex AFTER DELETE ON sessions
BEGIN
  DELETE FROM title_fts WHERE session_id = OLD.id;
  DELETE FROM message_fts WHERE session_id = OLD.id;
END;
`;
