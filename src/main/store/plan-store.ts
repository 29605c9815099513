import type { PlanStepStatus } from '../../shared/events.js';
import { randomUUID } from 'node:crypto';
import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './database.js';

export type PlanKind = 'planning' | 'plan_act';
export type PlanStatus = 'active' | 'completed' | 'stopped';

export interface PlanStep {
  index: number;
  text: string;
  status: PlanStepStatus;
  notes: string;
  /** the agent that runs (or ran) the step */
  agent?: string;
  /** indices of the steps it waits for; undefined: every earlier step */
  dependsOn?: number[];
  /** stays with the step when the plan is revised (its index may change); the planner's own id in Plan-Act */
  key: string;
  result?: string;
  success?: boolean;
  error?: string;
  /** workspace files the step produced */
  attachments: string[];
  runs: number;
}

export interface Plan {
  sessionId: string;
  id: string;
  kind: PlanKind;
  title: string;
  task: string;
  goal: string;
  language: string;
  message: string;
  status: PlanStatus;
  isActive: boolean;
  agents: string[];
  parallel: number;
  summary?: string;
  createdAt: number;
  updatedAt: number;
  steps: PlanStep[];
}

export type NewPlanStep = Pick<PlanStep, 'text'> & Partial<Omit<PlanStep, 'index' | 'text'>>;

export interface NewPlan {
  sessionId: string;
  id: string;
  kind: PlanKind;
  title: string;
  task?: string;
  goal?: string;
  language?: string;
  message?: string;
  agents?: string[];
  parallel?: number;
  steps: NewPlanStep[];
}

export type PlanPatch = Partial<Pick<Plan, 'title' | 'goal' | 'language' | 'message' | 'status' | 'summary'>>;
export type StepPatch = Partial<Omit<PlanStep, 'index' | 'runs'>> & { addRun?: boolean };

export class PlanNotFoundError extends Error {
  constructor(planId: string) {
    super(`No plan with id "${planId}" in this session.`);
    this.name = 'PlanNotFoundError';
  }
}

interface PlanRow {
  session_id: string;
  id: string;
  kind: PlanKind;
  title: string;
  task: string;
  goal: string;
  language: string;
  message: string;
  status: PlanStatus;
  is_active: number;
  agents_json: string;
  parallel: number;
  summary: string | null;
  created_at: number;
  updated_at: number;
}

interface StepRow {
  idx: number;
  step_key: string;
  text: string;
  status: PlanStepStatus;
  notes: string;
  agent: string | null;
  depends_on_json: string | null;
  result: string | null;
  success: number | null;
  error: string | null;
  attachments_json: string;
  runs: number;
}

const PLAN_COLUMNS =
  'session_id, id, kind, title, task, goal, language, message, status, is_active, agents_json, parallel, summary, created_at, updated_at';
const STEP_COLUMNS =
  'idx, step_key, text, status, notes, agent, depends_on_json, result, success, error, attachments_json, runs';

function stepFromRow(row: StepRow): PlanStep {
  return {
    index: row.idx,
    text: row.text,
    status: row.status,
    notes: row.notes,
    ...(row.agent !== null ? { agent: row.agent } : {}),
    ...(row.depends_on_json !== null ? { dependsOn: JSON.parse(row.depends_on_json) as number[] } : {}),
    key: row.step_key,
    ...(row.result !== null ? { result: row.result } : {}),
    ...(row.success !== null ? { success: row.success === 1 } : {}),
    ...(row.error !== null ? { error: row.error } : {}),
    attachments: JSON.parse(row.attachments_json) as string[],
    runs: row.runs,
  };
}

function planFromRow(row: PlanRow, steps: PlanStep[]): Plan {
  return {
    sessionId: row.session_id,
    id: row.id,
    kind: row.kind,
    title: row.title,
    task: row.task,
    goal: row.goal,
    language: row.language,
    message: row.message,
    status: row.status,
    isActive: row.is_active === 1,
    agents: JSON.parse(row.agents_json) as string[],
    parallel: row.parallel,
    ...(row.summary !== null ? { summary: row.summary } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    steps,
  };
}

const optional = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
const flag = (value: boolean | undefined): number | null => (value === undefined ? null : value ? 1 : 0);

/** The plans of sessions and their steps: what flows and the plan views read and write. */
export interface PlanStore {
  create(plan: NewPlan): Plan;
  get(sessionId: string, planId: string): Plan | undefined;
  /** like `get`, but a missing plan is a PlanNotFoundError */
  require(sessionId: string, planId: string): Plan;
  /** oldest first */
  list(sessionId: string): Plan[];
  /** The plan the planning tool works on when it is given no plan_id. */
  active(sessionId: string): Plan | undefined;
  setActive(sessionId: string, planId: string): Plan;
  updatePlan(sessionId: string, planId: string, patch: PlanPatch): Plan;
  /** Replaces the whole step list (the caller keeps completed steps as they were). */
  replaceSteps(sessionId: string, planId: string, steps: NewPlanStep[], title?: string): Plan;
  /** Changes one step; returns the whole plan as it is now. */
  updateStep(sessionId: string, planId: string, index: number, patch: StepPatch): Plan;
  /** Changes the step with this key wherever revisions have moved it; returns the whole plan. */
  updateStepByKey(sessionId: string, planId: string, key: string, patch: StepPatch): Plan;
  delete(sessionId: string, planId: string): void;
}

/** Plans and their steps in SQLite, next to the session they belong to; every write is one transaction. */
export class SqlitePlanStore implements PlanStore {
  private readonly sql;
  private readonly stepUpdates = new Map<string, Statement<unknown[]>>();

  constructor(private readonly db: SqliteDatabase) {
    this.sql = {
      insertPlan: db.prepare(
        `INSERT INTO plans (session_id, id, kind, title, task, goal, language, message, agents_json, parallel, created_at, updated_at)
         VALUES (@sessionId, @id, @kind, @title, @task, @goal, @language, @message, @agents, @parallel, @now, @now)`,
      ),
      insertStep: db.prepare(
        `INSERT INTO plan_steps (session_id, plan_id, idx, step_key, text, status, notes, agent, depends_on_json, result,
           success, error, attachments_json, runs, updated_at)
         VALUES (@sessionId, @planId, @idx, @key, @text, @status, @notes, @agent, @dependsOn, @result, @success, @error,
           @attachments, @runs, @now)`,
      ),
      deleteSteps: db.prepare<[string, string]>('DELETE FROM plan_steps WHERE session_id = ? AND plan_id = ?'),
      getPlan: db.prepare<[string, string], PlanRow>(
        `SELECT ${PLAN_COLUMNS} FROM plans WHERE session_id = ? AND id = ?`,
      ),
      listPlans: db.prepare<[string], PlanRow>(
        `SELECT ${PLAN_COLUMNS} FROM plans WHERE session_id = ? ORDER BY created_at, rowid`,
      ),
      steps: db.prepare<[string, string], StepRow>(
        `SELECT ${STEP_COLUMNS} FROM plan_steps WHERE session_id = ? AND plan_id = ? ORDER BY idx`,
      ),
      touchPlan: db.prepare<[number, string, string]>(
        'UPDATE plans SET updated_at = ? WHERE session_id = ? AND id = ?',
      ),
      clearActive: db.prepare<[string]>('UPDATE plans SET is_active = 0 WHERE session_id = ? AND is_active = 1'),
      setActive: db.prepare<[string, string]>('UPDATE plans SET is_active = 1 WHERE session_id = ? AND id = ?'),
      deletePlan: db.prepare<[string, string]>('DELETE FROM plans WHERE session_id = ? AND id = ?'),
      indexOfKey: db
        .prepare<[string, string, string], number>(
          'SELECT idx FROM plan_steps WHERE session_id = ? AND plan_id = ? AND step_key = ? ORDER BY idx LIMIT 1',
        )
        .pluck(),
    };
  }

  create(plan: NewPlan): Plan {
    const now = Date.now();
    this.db.transaction(() => {
      this.sql.insertPlan.run({
        sessionId: plan.sessionId,
        id: plan.id,
        kind: plan.kind,
        title: plan.title,
        task: plan.task ?? '',
        goal: plan.goal ?? '',
        language: plan.language ?? '',
        message: plan.message ?? '',
        agents: JSON.stringify(plan.agents ?? []),
        parallel: plan.parallel ?? 1,
        now,
      });
      this.insertSteps(plan.sessionId, plan.id, plan.steps, now);
      this.sql.clearActive.run(plan.sessionId);
      this.sql.setActive.run(plan.sessionId, plan.id);
    })();
    return this.require(plan.sessionId, plan.id);
  }

  get(sessionId: string, planId: string): Plan | undefined {
    const row = this.sql.getPlan.get(sessionId, planId);
    return row ? planFromRow(row, this.sql.steps.all(sessionId, planId).map(stepFromRow)) : undefined;
  }

  require(sessionId: string, planId: string): Plan {
    const plan = this.get(sessionId, planId);
    if (!plan) throw new PlanNotFoundError(planId);
    return plan;
  }

  /** oldest first */
  list(sessionId: string): Plan[] {
    return this.sql.listPlans
      .all(sessionId)
      .map((row) => planFromRow(row, this.sql.steps.all(sessionId, row.id).map(stepFromRow)));
  }

  /** The plan the planning tool works on when it is given no plan_id. */
  active(sessionId: string): Plan | undefined {
    const row = this.sql.listPlans.all(sessionId).find((plan) => plan.is_active === 1);
    return row ? this.get(sessionId, row.id) : undefined;
  }

  setActive(sessionId: string, planId: string): Plan {
    this.require(sessionId, planId);
    this.db.transaction(() => {
      this.sql.clearActive.run(sessionId);
      this.sql.setActive.run(sessionId, planId);
    })();
    return this.require(sessionId, planId);
  }

  updatePlan(sessionId: string, planId: string, patch: PlanPatch): Plan {
    const sets = Object.entries({
      title: patch.title,
      goal: patch.goal,
      language: patch.language,
      message: patch.message,
      status: patch.status,
      summary: patch.summary,
    }).filter(([, value]) => value !== undefined);
    const result = this.db
      .prepare(
        `UPDATE plans SET ${[...sets.map(([column]) => `${column} = ?`), 'updated_at = ?'].join(', ')}
         WHERE session_id = ? AND id = ?`,
      )
      .run(...sets.map(([, value]) => value), Date.now(), sessionId, planId);
    if (result.changes === 0) throw new PlanNotFoundError(planId);
    return this.require(sessionId, planId);
  }

  /** Replaces the whole step list (the caller keeps completed steps as they were). */
  replaceSteps(sessionId: string, planId: string, steps: NewPlanStep[], title?: string): Plan {
    this.require(sessionId, planId);
    const now = Date.now();
    this.db.transaction(() => {
      this.sql.deleteSteps.run(sessionId, planId);
      this.insertSteps(sessionId, planId, steps, now);
      if (title !== undefined) this.updatePlan(sessionId, planId, { title });
      else this.sql.touchPlan.run(now, sessionId, planId);
    })();
    return this.require(sessionId, planId);
  }

  /** Changes one step; returns the whole plan as it is now. */
  updateStep(sessionId: string, planId: string, index: number, patch: StepPatch): Plan {
    const columns: [string, unknown][] = [
      ['text', patch.text],
      ['status', patch.status],
      ['notes', patch.notes],
      ['agent', patch.agent],
      ['result', patch.result],
      ['success', flag(patch.success)],
      ['error', patch.error],
      ['attachments_json', patch.attachments && JSON.stringify(patch.attachments)],
      ['depends_on_json', patch.dependsOn && JSON.stringify(patch.dependsOn)],
    ];
    const sets = columns.filter(([, value]) => value !== undefined && value !== null);
    const now = Date.now();
    const changed = this.db.transaction(() => {
      const result = this.stepUpdate(
        sets.map(([column]) => column),
        Boolean(patch.addRun),
      ).run(...sets.map(([, value]) => value), now, sessionId, planId, index);
      if (result.changes > 0) this.sql.touchPlan.run(now, sessionId, planId);
      return result.changes > 0;
    })();
    if (!changed) throw new Error(`Plan "${planId}" has no step ${index}.`);
    return this.require(sessionId, planId);
  }

  /** Changes the step with this key wherever revisions have moved it; returns the whole plan. */
  updateStepByKey(sessionId: string, planId: string, key: string, patch: StepPatch): Plan {
    const index = this.sql.indexOfKey.get(sessionId, planId, key);
    if (index === undefined) throw new Error(`Plan "${planId}" has no step "${key}".`);
    return this.updateStep(sessionId, planId, index, patch);
  }

  /** One prepared statement per set of changed columns: flows repeat the same few shapes on every step. */
  private stepUpdate(columns: string[], addRun: boolean): Statement<unknown[]> {
    const key = `${columns.join(',')}|${addRun}`;
    let statement = this.stepUpdates.get(key);
    if (!statement) {
      const assignments = [...columns.map((column) => `${column} = ?`), 'updated_at = ?'];
      if (addRun) assignments.push('runs = runs + 1');
      statement = this.db.prepare<unknown[]>(
        `UPDATE plan_steps SET ${assignments.join(', ')} WHERE session_id = ? AND plan_id = ? AND idx = ?`,
      );
      this.stepUpdates.set(key, statement);
    }
    return statement;
  }

  delete(sessionId: string, planId: string): void {
    if (this.sql.deletePlan.run(sessionId, planId).changes === 0) throw new PlanNotFoundError(planId);
  }

  private insertSteps(sessionId: string, planId: string, steps: NewPlanStep[], now: number): void {
    steps.forEach((step, idx) =>
      this.sql.insertStep.run({
        sessionId,
        planId,
        idx,
        key: step.key ?? randomUUID().slice(0, 8),
        text: step.text,
        status: step.status ?? 'not_started',
        notes: step.notes ?? '',
        agent: optional(step.agent),
        dependsOn: step.dependsOn ? JSON.stringify(step.dependsOn) : null,
        result: optional(step.result),
        success: flag(step.success),
        error: optional(step.error),
        attachments: JSON.stringify(step.attachments ?? []),
        runs: step.runs ?? 0,
        now,
      }),
    );
  }
}
