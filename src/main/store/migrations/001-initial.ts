/** Sessions, the append-only event log, agent memory, settings, and full-text search kept current by triggers. */
export const initialSchema = `
CREATE TABLE sessions (
  id                TEXT PRIMARY KEY,
  title             TEXT NOT NULL,
  status            TEXT NOT NULL CHECK (status IN ('running', 'finished', 'failed', 'interrupted', 'cancelled', 'idle')),
  mode              TEXT NOT NULL CHECK (mode IN ('agent', 'planning', 'plan_act')),
  model             TEXT NOT NULL,
  workspace         TEXT NOT NULL,
  prompt_tokens     INTEGER NOT NULL DEFAULT 0,
  completion_tokens INTEGER NOT NULL DEFAULT 0,
  total_tokens      INTEGER NOT NULL DEFAULT 0,
  cost              REAL,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL
);
-- newest first, ties broken by id so that pages (limit/offset) are stable
CREATE INDEX sessions_by_updated ON sessions (updated_at DESC, id);
CREATE INDEX sessions_by_status_updated ON sessions (status, updated_at DESC, id);

CREATE TABLE events (
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL CHECK (seq > 0),
  type       TEXT NOT NULL,
  ts         INTEGER NOT NULL,
  json       TEXT NOT NULL CHECK (json_valid(json)),
  PRIMARY KEY (session_id, seq)
) WITHOUT ROWID;

CREATE TRIGGER events_no_update BEFORE UPDATE ON events
BEGIN
  SELECT RAISE(ABORT, 'events are append-only');
END;

-- rows go only with their session (the cascade runs after the session row is gone)
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
WHEN EXISTS (SELECT 1 FROM sessions WHERE id = OLD.session_id)
BEGIN
  SELECT RAISE(ABORT, 'events are append-only; delete the session instead');
END;

CREATE TABLE agent_memory (
  session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  agent      TEXT NOT NULL,
  idx        INTEGER NOT NULL,
  json       TEXT NOT NULL CHECK (json_valid(json)),
  PRIMARY KEY (session_id, agent, idx)
) WITHOUT ROWID;

CREATE TABLE settings (
  key  TEXT PRIMARY KEY,
  json TEXT NOT NULL CHECK (json_valid(json))
) WITHOUT ROWID;

-- whole messages (not streamed deltas) of any role; keyed by (session_id, seq), not rowid, which VACUUM may renumber.
-- prefix indexes for 2 and 3 characters: searching while typing must not merge the doclists of every word they start
CREATE VIRTUAL TABLE message_fts USING fts5 (
  text,
  session_id UNINDEXED,
  seq UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);

CREATE VIRTUAL TABLE title_fts USING fts5 (
  title,
  session_id UNINDEXED,
  tokenize = 'unicode61 remove_diacritics 2',
  prefix = '2 3'
);

-- Indexing a message in its own commit costs ~10x the append itself (FTS5 writes a segment per transaction), so the
-- trigger only queues it; the store moves the queue into message_fts in batches and always before a search.
CREATE TABLE message_fts_queue (
  -- arrival order, so that message_fts rowids follow time (search walks them newest first)
  id         INTEGER PRIMARY KEY,
  session_id TEXT NOT NULL,
  seq        INTEGER NOT NULL,
  FOREIGN KEY (session_id, seq) REFERENCES events (session_id, seq) ON DELETE CASCADE
);

CREATE TRIGGER events_queue_message AFTER INSERT ON events
WHEN NEW.type = 'message' AND json_extract(NEW.json, '$.delta') = 0
BEGIN
  INSERT INTO message_fts_queue (session_id, seq) VALUES (NEW.session_id, NEW.seq);
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

-- events and memory go by ON DELETE CASCADE; the search entries by these statements
CREATE TRIGGER sessions_unindex AFTER DELETE ON sessions
BEGIN
  DELETE FROM title_fts WHERE session_id = OLD.id;
  DELETE FROM message_fts WHERE session_id = OLD.id;
END;
`;
