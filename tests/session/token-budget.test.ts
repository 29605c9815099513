import { afterEach, describe, expect, it } from 'vitest';
import type { FakeReply, ScriptRequest } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { TOKEN_BUDGET_CODE } from '../../src/main/session/token-budget.js';
import { classify, createPlan, finish } from '../flow/flow-script.js';
import type { ModeRunner } from '../../src/main/flow/mode-runner.js';
import { BUILTIN_MODES } from '../../src/main/flow/mode-catalog.js';
import { ofType } from '../support/events-of-type.js';

/** every scripted reply reports this usage: 500 tokens a call */
const USAGE = { prompt_tokens: 400, completion_tokens: 100 };

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A model that never ends: each reply calls a tool again, with new arguments (so it is not stuck). */
const busyReply = (request: ScriptRequest): FakeReply => ({
  usage: USAGE,
  toolCalls: [{ name: 'no_such_tool', arguments: { attempt: request.index } }],
});

function budgetErrors(sessionId: string) {
  return ofType(harness!.store.listEvents(sessionId), 'error').filter((e) => e.code === TOKEN_BUDGET_CODE);
}

describe('token budget', () => {
  it('stops an agent run once its calls used its --max-tokens, with no further model call', async () => {
    harness = await startCoreHarness(busyReply);
    const { sessionId, done } = harness.service.start({ task: 'Work forever', maxTotalTokens: 1200 });
    const result = await done;
    // 500 + 500 + 500: the third call passes 1,200, the fourth is never sent
    expect(harness.llm.chatRequests).toHaveLength(3);
    expect(result.status).toBe('failed');
    expect(result.result).toMatch(/this run used 1,500 tokens, its budget is 1,200/);
    expect(budgetErrors(sessionId)).toHaveLength(1);
    expect(harness.store.getSession(sessionId)).toMatchObject({ status: 'failed', usage: { totalTokens: 1500 } });
  });

  it('counts a session over all its runs against agent.maxTotalTokens', async () => {
    harness = await startCoreHarness(
      (request) => (request.index === 0 ? { ...finish('First answer.'), usage: USAGE } : busyReply(request)),
      { settings: { agent: { maxTotalTokens: 1200 } } },
    );
    const first = harness.service.start({ task: 'Answer once' });
    expect(await first.done).toMatchObject({ status: 'finished' });

    // the session has 500; this run's two calls take it to 1,500 and the third is refused
    const second = harness.service.start({ task: 'Now work forever', sessionId: first.sessionId });
    expect(await second.done).toMatchObject({ status: 'failed' });
    expect(harness.llm.chatRequests).toHaveLength(3);
    expect(budgetErrors(first.sessionId)[0].message).toMatch(/this session used 1,500 tokens/);

    // a new run of a session past its budget makes no call at all
    const third = harness.service.start({ task: 'Again', sessionId: first.sessionId });
    expect(await third.done).toMatchObject({ status: 'failed' });
    expect(harness.llm.chatRequests).toHaveLength(3);
    expect(budgetErrors(first.sessionId)).toHaveLength(2);
  });

  it('stops the whole planning flow (no revision, no summary) and resumes with a larger budget', async () => {
    let stepsWork = false;
    harness = await startCoreHarness((request) => {
      const kind = classify(request.body);
      if (kind.kind === 'plan') return { ...createPlan('Two steps', ['Gather facts', 'Write draft']), usage: USAGE };
      if (kind.kind === 'step' && stepsWork) return { ...finish(`Result of step ${kind.index}`), usage: USAGE };
      if (kind.kind === 'step') return busyReply(request);
      if (kind.kind === 'revise') return { text: 'continue', usage: USAGE };
      if (kind.kind === 'summary') return { text: 'Summary: all done.', usage: USAGE };
      return { text: `unexpected ${kind.kind}`, usage: USAGE };
    });
    const { sessionId, done } = harness.service.start({ task: 'Plan it', mode: 'planning', maxTotalTokens: 1200 });
    expect(await done).toMatchObject({ status: 'failed' });
    const kinds = harness.llm.chatRequests.map((request) => classify(request.body).kind);
    expect(kinds).toEqual(['plan', 'step', 'step']);
    expect(budgetErrors(sessionId)).toHaveLength(1);
    // the step cut off is not done: resuming runs it again
    const plan = harness.store.plans.list(sessionId).at(-1)!;
    expect(plan.steps.map((step) => step.status)).toEqual(['not_started', 'not_started']);

    stepsWork = true;
    const resumed = harness.service.resume(sessionId, { maxTotalTokens: 100_000 });
    expect(await resumed.done).toMatchObject({ status: 'finished' });
    expect(
      harness.store.plans
        .list(sessionId)
        .at(-1)!
        .steps.every((step) => step.status === 'completed'),
    ).toBe(true);
  });

  it('stops a Plan-Act flow as a whole', async () => {
    const plan = {
      title: 'Report',
      goal: 'Write a report',
      language: 'en',
      steps: [
        { id: 'a', description: 'Collect the numbers' },
        { id: 'b', description: 'Write the report' },
      ],
      message: 'Two steps.',
    };
    harness = await startCoreHarness((request) => {
      const kind = classify(request.body).kind;
      if (kind === 'pa_create') return { text: JSON.stringify(plan), usage: USAGE };
      if (kind === 'pa_step') return busyReply(request);
      return { text: `unexpected ${kind}`, usage: USAGE };
    });
    const { sessionId, done } = harness.service.start({ task: 'Report', mode: 'plan_act', maxTotalTokens: 1200 });
    expect(await done).toMatchObject({ status: 'failed' });
    const kinds = harness.llm.chatRequests.map((request) => classify(request.body).kind);
    expect(kinds).toEqual(['pa_create', 'pa_step', 'pa_step']);
    expect(budgetErrors(sessionId)).toHaveLength(1);
  });

  it('ends a run out of budget even when its mode carries on after the refused call', async () => {
    const carriesOn: ModeRunner = async (run) => {
      for (let call = 0; call < 3; call++) {
        try {
          await run.llm.ask([{ role: 'user', content: run.request.task }]);
        } catch {
          // a careless mode: the refusal is ignored
        }
      }
      return { status: 'finished', result: 'All fine.' };
    };
    harness = await startCoreHarness(() => ({ text: 'ok', usage: USAGE }), {
      service: { modes: { ...BUILTIN_MODES, agent: carriesOn } },
    });
    const { sessionId, done } = harness.service.start({ task: 'Ask thrice', maxTotalTokens: 400 });
    expect(await done).toMatchObject({ status: 'failed' });
    expect(harness.llm.chatRequests).toHaveLength(1);
    expect(budgetErrors(sessionId)).toHaveLength(1);
  });
});
