import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/main/store/store.js';
import { appliedVersions } from '../../src/main/store/database.js';
import { PlanningParameters, planningTool } from '../../src/main/flow/planning-tool.js';
import { BUILTIN_AGENTS } from '../../src/main/agent/agent-catalog.js';
import { createToolContext, type TestToolContext } from '../support/tool-context.js';

let dataDir: string;
let store: Store;
afterEach(() => {
  store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function setup(): TestToolContext {
  dataDir = mkdtempSync(join(tmpdir(), 'manus-plans-'));
  store = openStore(dataDir);
  const ctx = createToolContext();
  store.createSession({ id: ctx.sessionId, title: 't', mode: 'planning', model: 'm', workspace: ctx.workspace });
  return ctx;
}

async function planning(ctx: TestToolContext, args: unknown) {
  const parsed = PlanningParameters.safeParse(args);
  if (!parsed.success) throw new Error(parsed.error.message);
  return planningTool(store.plans, Object.keys(BUILTIN_AGENTS)).execute(parsed.data, ctx);
}

describe('PlanningTool', () => {
  it('creates a plan in SQLite and renders it in the plan text form', async () => {
    const ctx = setup();
    expect(appliedVersions(store.db)).toContain(3);
    const created = await planning(ctx, {
      command: 'create',
      plan_id: 'p1',
      title: 'Trip',
      steps: ['Pick dates', 'Book train', 'Pack'],
    });
    expect(created.error).toBeUndefined();
    await planning(ctx, {
      command: 'mark_step',
      plan_id: 'p1',
      step_index: 0,
      step_status: 'completed',
      step_notes: 'May 3-7',
    });
    await planning(ctx, { command: 'mark_step', plan_id: 'p1', step_index: 1, step_status: 'in_progress' });
    await planning(ctx, {
      command: 'mark_step',
      plan_id: 'p1',
      step_index: 2,
      step_status: 'blocked',
      step_notes: 'no bag',
    });
    const got = await planning(ctx, { command: 'get', plan_id: 'p1' });
    expect(got.output).toBe(
      [
        'Plan: Trip (ID: p1)',
        '===================',
        '',
        'Progress: 1/3 steps completed (33.3%)',
        'Status: 1 completed, 1 in progress, 1 blocked, 0 not started',
        '',
        'Steps:',
        '0. [✓] Pick dates',
        '   Notes: May 3-7',
        '1. [→] Book train',
        '2. [!] Pack',
        '   Notes: no bag',
      ].join('\n'),
    );
    // persisted: a second store over the same file sees it
    const again = openStore(dataDir);
    expect(again.plans.require(ctx.sessionId, 'p1').steps.map((s) => s.status)).toEqual([
      'completed',
      'in_progress',
      'blocked',
    ]);
    again.close();
  });

  it('lists, switches the active plan, updates (keeping completed steps) and deletes', async () => {
    const ctx = setup();
    await planning(ctx, { command: 'create', plan_id: 'a', title: 'A', steps: ['a0', 'a1'] });
    await planning(ctx, { command: 'create', plan_id: 'b', title: 'B', steps: ['b0'] });
    expect((await planning(ctx, { command: 'list' })).output).toBe(
      'Available plans:\n• a: A - 0/2 steps completed\n• b (active): B - 0/1 steps completed',
    );
    await planning(ctx, { command: 'set_active', plan_id: 'a' });
    await planning(ctx, { command: 'mark_step', step_index: 0, step_status: 'completed', step_notes: 'done a0' });
    const updated = await planning(ctx, { command: 'update', title: 'A2', steps: ['a0 rewritten', 'a2'] });
    expect(updated.output).toContain('Plan: A2 (ID: a)');
    const plan = store.plans.require(ctx.sessionId, 'a');
    expect(plan.steps.map((s) => [s.text, s.status, s.notes])).toEqual([
      ['a0', 'completed', 'done a0'],
      ['a0 rewritten', 'not_started', ''],
      ['a2', 'not_started', ''],
    ]);
    expect((await planning(ctx, { command: 'delete', plan_id: 'b' })).output).toContain('deleted');
    expect((await planning(ctx, { command: 'get', plan_id: 'b' })).error).toBe('No plan with id "b" in this session.');
  });

  it('gives readable errors for a missing plan, a bad index, a bad status and a completed step', async () => {
    const ctx = setup();
    expect((await planning(ctx, { command: 'get' })).error).toBe(
      'There is no active plan. Give a plan_id or create a plan first.',
    );
    expect((await planning(ctx, { command: 'mark_step', plan_id: 'nope', step_index: 0 })).error).toBe(
      'No plan with id "nope" in this session.',
    );
    await planning(ctx, { command: 'create', plan_id: 'p', title: 'P', steps: ['one', 'two'] });
    expect((await planning(ctx, { command: 'mark_step', step_index: 5, step_status: 'completed' })).error).toBe(
      'Invalid step_index 5: plan "p" has 2 steps (0 to 1).',
    );
    expect((await planning(ctx, { command: 'mark_step', step_index: 0, step_status: 'done' })).error).toBe(
      'Invalid step_status "done". Use one of: not_started, in_progress, completed, blocked.',
    );
    expect((await planning(ctx, { command: 'create', plan_id: 'p', title: 'P', steps: ['x'] })).error).toContain(
      'already exists',
    );
    expect((await planning(ctx, { command: 'create', title: 'Empty', steps: [] })).error).toContain('non-empty list');
    await planning(ctx, { command: 'mark_step', step_index: 0, step_status: 'completed' });
    expect((await planning(ctx, { command: 'mark_step', step_index: 0, step_status: 'not_started' })).error).toBe(
      'Step 0 is completed; completed steps do not change.',
    );
  });

  it('keeps step dependencies and [TAG] agents with the steps, and deletes plans with their session', async () => {
    const ctx = setup();
    await planning(ctx, {
      command: 'create',
      plan_id: 'p',
      title: 'P',
      steps: ['[SWE] build', '[data_analysis] chart', 'report'],
      step_dependencies: [[], [], [0, 1, 7]],
    });
    const plan = store.plans.require(ctx.sessionId, 'p');
    expect(plan.steps.map((s) => [s.agent, s.dependsOn])).toEqual([
      ['swe', []],
      ['data_analysis', []],
      [undefined, [0, 1]],
    ]);
    store.deleteSession(ctx.sessionId);
    expect(store.plans.list(ctx.sessionId)).toEqual([]);
  });
});
