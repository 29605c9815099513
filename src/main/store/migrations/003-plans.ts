/**
 * Plans of the planning and Plan-Act flows, kept with their session so a flow can be resumed after a crash.
 * Plan ids are chosen by the flow or the model, so they are unique per session only.
 */
export const plansSchema = `
CREATE TABLE plans (
  session_id  TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  id          TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('planning', 'plan_act')),
  title       TEXT NOT NULL,
  -- the request the plan answers
  task        TEXT NOT NULL DEFAULT '',
  goal        TEXT NOT NULL DEFAULT '',
  language    TEXT NOT NULL DEFAULT '',
  -- the planner's message to the person (Plan-Act)
  message     TEXT NOT NULL DEFAULT '',
  status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'completed', 'stopped')),
  -- the plan the planning tool works on when no plan_id is given
  is_active   INTEGER NOT NULL DEFAULT 0 CHECK (is_active IN (0, 1)),
  -- the flow's options, so that a resumed run uses the same agents and parallelism
  agents_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(agents_json)),
  parallel    INTEGER NOT NULL DEFAULT 1 CHECK (parallel >= 1),
  summary     TEXT,
  created_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  PRIMARY KEY (session_id, id)
);
CREATE INDEX plans_by_session_created ON plans (session_id, created_at);

CREATE TABLE plan_steps (
  session_id       TEXT NOT NULL,
  plan_id          TEXT NOT NULL,
  idx              INTEGER NOT NULL CHECK (idx >= 0),
  -- stays with the step when a revision moves it; the planner's own step id in Plan-Act
  step_key         TEXT NOT NULL,
  text             TEXT NOT NULL,
  status           TEXT NOT NULL CHECK (status IN ('not_started', 'in_progress', 'completed', 'blocked')),
  notes            TEXT NOT NULL DEFAULT '',
  agent            TEXT,
  -- indices of the steps this one waits for; NULL: all earlier steps
  depends_on_json  TEXT CHECK (depends_on_json IS NULL OR json_valid(depends_on_json)),
  result           TEXT,
  success          INTEGER CHECK (success IS NULL OR success IN (0, 1)),
  error            TEXT,
  attachments_json TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(attachments_json)),
  -- how many times an agent started this step
  runs             INTEGER NOT NULL DEFAULT 0,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (session_id, plan_id, idx),
  FOREIGN KEY (session_id, plan_id) REFERENCES plans (session_id, id) ON DELETE CASCADE
) WITHOUT ROWID;
`;
