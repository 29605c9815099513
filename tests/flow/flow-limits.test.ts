import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/shared/events.js';
import { FlowFactory } from '../../src/main/flow/flow-factory.js';
import { BUILTIN_MODES, type ModeCatalog } from '../../src/main/flow/mode-catalog.js';
import type { FlowOptions } from '../../src/main/flow/base-flow.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { classify, finish, planningScript } from './flow-script.js';

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** This file runs the flows with small limits (the mode runner of the app uses 100 step runs and 60 minutes). */
function limitFlows(options: Partial<FlowOptions>): { service: { modes: ModeCatalog } } {
  const flowOptions = { agents: ['manus'], parallel: 1, stepLimit: 100, maxReplans: 3, timeoutMs: 60_000, ...options };
  const modes: ModeCatalog = {
    ...BUILTIN_MODES,
    planning: (run) => FlowFactory.create('planning', run, flowOptions).execute(run.request.task),
    plan_act: (run) => FlowFactory.create('plan_act', run, flowOptions).execute(run.request.task),
  };
  return { service: { modes } };
}

function notices(sessionId: string): string[] {
  return harness!.store
    .listEvents(sessionId)
    .filter((e): e is Extract<CoreEvent, { type: 'notice' }> => e.type === 'notice')
    .map((e) => e.code);
}

describe('flow limits', () => {
  it('stops at the step limit with a summary, and resume carries on without redoing steps', async () => {
    harness = await startCoreHarness(planningScript(), limitFlows({ stepLimit: 2 }));
    const { sessionId, done } = harness.service.start({ task: 'Three things', mode: 'planning' });
    const first = await done;
    expect(first.status).toBe('failed');
    expect(harness.store.plans.list(sessionId)[0]).toMatchObject({ status: 'stopped' });
    const summary = harness.llm.chatRequests.map((r) => classify(r.body)).find((k) => k.kind === 'summary');
    expect(summary && 'prompt' in summary ? summary.prompt : '').toContain('limit of 2 step runs');

    expect(await harness.service.resume(sessionId).done).toMatchObject({ status: 'finished' });
    expect(harness.store.plans.list(sessionId)[0].steps.map((s) => [s.status, s.runs])).toEqual([
      ['completed', 1],
      ['completed', 1],
      ['completed', 1],
    ]);
    // resuming a finished flow runs nothing again
    const requestsBefore = harness.llm.chatRequests.length;
    expect(await harness.service.resume(sessionId).done).toMatchObject({
      status: 'finished',
      result: 'Summary: all done.',
    });
    expect(harness.llm.chatRequests.length).toBe(requestsBefore);
    expect(notices(sessionId)).toContain('nothing_to_resume');
  });

  it('stops at the overall timeout: the running step is not completed, and a summary still ends the turn', async () => {
    harness = await startCoreHarness(
      planningScript({
        step: (step) =>
          step.index === 1 ? { ...finish('late'), delayMs: 10_000 } : finish(`Result of step ${step.index}`),
      }),
      limitFlows({ timeoutMs: 1500 }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Slow', mode: 'planning' });
    const result = await done;
    expect(result).toMatchObject({ status: 'failed', result: 'Summary: all done.' });
    expect(harness.store.plans.list(sessionId)[0].steps.map((s) => s.status)).toEqual([
      'completed',
      'not_started',
      'not_started',
    ]);
    const summary = harness.llm.chatRequests.map((r) => classify(r.body)).find((k) => k.kind === 'summary');
    expect(summary && 'prompt' in summary ? summary.prompt : '').toContain(
      '(setting planning.timeoutMinutes) was reached',
    );
  });

  it('takes its limits from the settings planning.maxStepRuns and planning.timeoutMinutes, or from the turn, and says which it reached', async () => {
    harness = await startCoreHarness(planningScript(), {
      settings: { planning: { maxStepRuns: 2, timeoutMinutes: 60 } },
    });
    const limited = harness.service.start({ task: 'Three things', mode: 'planning' });
    expect(await limited.done).toMatchObject({ status: 'failed' });
    const notice = harness.store
      .listEvents(limited.sessionId)
      .find((e): e is Extract<CoreEvent, { type: 'notice' }> => e.type === 'notice' && e.code === 'flow_step_limit');
    expect(notice).toMatchObject({ level: 'warning', params: { limit: 2 } });
    expect(harness.store.plans.list(limited.sessionId)[0].steps.map((s) => s.runs)).toEqual([1, 1, 0]);

    // the turn's own limit (`manus flow --max-step-runs`) wins over the setting
    const once = harness.service.start({ task: 'Three things', mode: 'planning', maxStepRuns: 1 });
    await once.done;
    expect(harness.store.plans.list(once.sessionId)[0].steps.map((s) => s.runs)).toEqual([1, 0, 0]);
  });

  it("stops at the turn's timeout in minutes with a notice naming it", async () => {
    harness = await startCoreHarness(
      planningScript({ step: (step) => (step.index === 1 ? { ...finish('late'), delayMs: 10_000 } : finish('done')) }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Slow', mode: 'planning', timeoutMinutes: 0.025 });
    expect(await done).toMatchObject({ status: 'failed' });
    expect(notices(sessionId)).toContain('flow_timeout');
  });
});
