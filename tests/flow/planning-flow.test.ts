import { afterEach, describe, expect, it } from 'vitest';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { call, classify, createPlan, finish, planningScript, stepStarts } from './flow-script.js';
import { waitFor } from '../support/wait-for.js';
import { ofType } from '../support/events-of-type.js';

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function bodies() {
  return harness!.llm.chatRequests.map((r) => r.body);
}

function plansOf(sessionId: string) {
  return harness!.store.plans.list(sessionId);
}

describe('PlanningFlow', () => {
  it('creates the plan with the planning tool only, runs every step with the notes of earlier ones, and summarises', async () => {
    harness = await startCoreHarness(planningScript());
    const { sessionId, done } = harness.service.start({ task: 'Write a short report', mode: 'planning' });
    const result = await done;
    expect(result).toEqual({ sessionId, status: 'finished', result: 'Summary: all done.' });

    const planRequest = harness.llm.chatRequests[0].body;
    expect(planRequest.tool_choice).toBe('required');
    expect(planRequest.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual(['planning']);

    const [plan] = plansOf(sessionId);
    expect(plan).toMatchObject({
      kind: 'planning',
      title: 'Three steps',
      status: 'completed',
      task: 'Write a short report',
    });
    expect(plan.id).toMatch(/^plan_\d+_/);
    expect(plan.steps.map((s) => [s.status, s.notes, s.agent])).toEqual([
      ['completed', 'Result of step 0', 'manus'],
      ['completed', 'Result of step 1', 'manus'],
      ['completed', 'Result of step 2', 'manus'],
    ]);
    const stepPrompts = bodies()
      .map(classify)
      .filter((k) => k.kind === 'step' && k.first);
    expect(stepPrompts).toHaveLength(3);
    const third = stepPrompts[2] as Extract<ReturnType<typeof classify>, { kind: 'step' }>;
    expect(third.prompt).toContain('Progress: 2/3 steps completed (66.7%)');
    expect(third.prompt).toContain('Step 0 (Gather facts): Result of step 0');
    expect(third.prompt).toContain('Step 1 (Write draft): Result of step 1');

    const events = harness.store.listEvents(sessionId);
    // the session is named from the task, as every session is; the planner's title names the plan
    expect(ofType(events, 'title')).toEqual([]);
    expect(harness.store.getSession(sessionId)?.title).toBe('Write a short report');
    expect(harness.store.plans.list(sessionId)[0].title).toBe('Three steps');
    expect(ofType(events, 'plan').map((e) => e.action)[0]).toBe('created');
    expect(ofType(events, 'plan').at(-1)).toMatchObject({ action: 'completed' });
    expect(ofType(events, 'plan').at(-1)!.plan.text).toContain('Progress: 3/3 steps completed (100.0%)');
    expect(ofType(events, 'step').map((e) => `${e.stepIndex}:${e.action}`)).toEqual([
      '0:started',
      '0:completed',
      '1:started',
      '1:completed',
      '2:started',
      '2:completed',
    ]);
    expect(ofType(events, 'step')[1].result).toBe('Result of step 0');
  });

  it('routes [TAG] steps to the named agent (case-insensitive), others to the first executor', async () => {
    harness = await startCoreHarness(
      planningScript({
        plan: () => createPlan('Tagged', ['[SWE] write the parser', '[Data_Analysis] chart the data', 'report']),
      }),
    );
    const { sessionId, done } = harness.service.start({
      task: 'Build and chart',
      mode: 'planning',
      agents: ['manus', 'swe', 'data_analysis'],
    });
    expect((await done).status).toBe('finished');
    const planPrompt = JSON.stringify(harness.llm.chatRequests[0].body.messages);
    expect(planPrompt).toContain('- swe: A software engineer');
    expect(planPrompt).toContain('- data_analysis: Analyses data');
    const started = ofType(harness.store.listEvents(sessionId), 'step').filter((e) => e.action === 'started');
    expect(started.map((e) => e.agent)).toEqual(['swe', 'data_analysis', 'manus']);
    const systems = bodies()
      .map(classify)
      .flatMap((k) => (k.kind === 'step' && k.first ? [k.system] : []));
    expect(systems[0]).toContain('software engineering agent');
    expect(systems[1]).toContain('data analysis agent');
    expect(systems[2]).toContain('You are Manus');
  });

  it('falls back to the default plan when planning fails, and says so', async () => {
    harness = await startCoreHarness(
      planningScript({ plan: () => ({ fault: 'status', status: 400, message: 'bad request' }) }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Do the thing', mode: 'planning' });
    expect((await done).status).toBe('finished');
    expect(plansOf(sessionId)[0].steps.map((s) => s.text)).toEqual([
      'Analyze the request',
      'Execute the task',
      'Verify the results',
    ]);
    const notice = ofType(harness.store.listEvents(sessionId), 'notice').find((n) => n.code === 'default_plan');
    expect(notice?.text).toContain('using a default plan');
  });

  it('marks a failing step blocked and lets the planner replace it with an alternative', async () => {
    harness = await startCoreHarness(
      planningScript({
        plan: () => createPlan('Fetch', ['Download the file', 'Parse the file']),
        step: (step) =>
          step.text === 'Download the file'
            ? finish('The server refused the download (403).', 'failure')
            : finish(`Result of ${step.text}`),
        revise: (revise) =>
          revise.blocked
            ? {
                toolCalls: [
                  call('planning', {
                    command: 'update',
                    steps: ['Find a mirror of the file', 'Parse the file'],
                  }),
                ],
              }
            : { text: 'continue' },
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Get and parse', mode: 'planning' });
    expect((await done).status).toBe('finished');
    const steps = ofType(harness.store.listEvents(sessionId), 'step');
    expect(steps.find((e) => e.action === 'blocked')).toMatchObject({
      stepIndex: 0,
      description: 'Download the file',
    });
    expect(steps.find((e) => e.action === 'blocked')?.result).toContain('403');
    const blockedRevision = bodies()
      .map(classify)
      .find((k) => k.kind === 'revise' && k.blocked);
    expect(blockedRevision && 'prompt' in blockedRevision ? blockedRevision.prompt : '').toContain('Step 0 is blocked');
    expect(plansOf(sessionId)[0].steps.map((s) => [s.text, s.status])).toEqual([
      ['Find a mirror of the file', 'completed'],
      ['Parse the file', 'completed'],
    ]);
  });

  it('stops with the blocked step when the planner decides not to go on, and the summary says so', async () => {
    harness = await startCoreHarness(
      planningScript({
        plan: () => createPlan('Two', ['Impossible step', 'Later step']),
        step: (step) => (step.index === 0 ? finish('Cannot be done.', 'failure') : finish('never')),
        revise: () => ({ text: 'stop' }),
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Try', mode: 'planning' });
    expect((await done).status).toBe('failed');
    expect(plansOf(sessionId)[0]).toMatchObject({ status: 'stopped' });
    expect(plansOf(sessionId)[0].steps.map((s) => s.status)).toEqual(['blocked', 'not_started']);
    const summary = bodies()
      .map(classify)
      .find((k) => k.kind === 'summary');
    expect(summary && 'prompt' in summary ? summary.prompt : '').toContain('some steps are blocked');
    expect(stepStarts(bodies()).get(1)).toBeUndefined();
  });

  it('lets the planner update the remaining steps after a step, never changing completed ones', async () => {
    let revisions = 0;
    harness = await startCoreHarness(
      planningScript({
        plan: () => createPlan('Essay', ['Outline', 'Draft', 'Polish']),
        revise: () => {
          revisions++;
          if (revisions > 1) return { text: 'continue' };
          return {
            toolCalls: [
              call('planning', { command: 'mark_step', step_index: 0, step_status: 'not_started', step_notes: 'x' }),
              call('planning', { command: 'update', steps: ['Outline', 'Research sources', 'Draft'] }),
            ],
          };
        },
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Write an essay', mode: 'planning' });
    expect((await done).status).toBe('finished');
    const [plan] = plansOf(sessionId);
    expect(plan.steps.map((s) => [s.text, s.status, s.notes])).toEqual([
      ['Outline', 'completed', 'Result of step 0'],
      ['Research sources', 'completed', 'Result of step 1'],
      ['Draft', 'completed', 'Result of step 2'],
    ]);
    const refused = ofType(harness.store.listEvents(sessionId), 'notice').find((n) => n.code === 'replan_refused');
    expect(refused?.text).toBe('Step 0 is completed; completed steps do not change.');
    expect([...stepStarts(bodies()).entries()]).toEqual([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
  });

  it('summary falls back to the primary agent when the model fails', async () => {
    harness = await startCoreHarness(
      planningScript({ summary: () => ({ fault: 'status', status: 400, message: 'no summary today' }) }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Summarise me', mode: 'planning' });
    expect(await done).toMatchObject({ status: 'finished', result: 'Agent summary.' });
    const codes = ofType(harness.store.listEvents(sessionId), 'notice').map((n) => n.code);
    expect(codes).toContain('summary_fallback');
    expect(codes).not.toContain('summary_report');
  });

  it('summary falls back to the plain plan report when the agent fails too', async () => {
    harness = await startCoreHarness(
      planningScript({
        summary: () => ({ fault: 'status', status: 400, message: 'no' }),
        summaryAgent: () => ({ fault: 'status', status: 400, message: 'no either' }),
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Summarise me', mode: 'planning' });
    const result = await done;
    expect(result.status).toBe('finished');
    expect(result.result).toContain('All steps are completed.');
    expect(result.result).toContain('Progress: 3/3 steps completed (100.0%)');
    expect(result.result).toContain('Step 2 (Check draft):\nResult of step 2');
    const codes = ofType(harness.store.listEvents(sessionId), 'notice').map((n) => n.code);
    expect(codes).toEqual(expect.arrayContaining(['summary_fallback', 'summary_report']));
    expect(plansOf(sessionId)[0].summary).toBe(result.result);
  });

  it('plans a follow-up message again with the earlier results as context', async () => {
    harness = await startCoreHarness(
      planningScript({
        summary: (s) => ({ text: s.prompt.includes('second task') ? 'Second summary.' : 'First summary: PAPAYA.' }),
      }),
    );
    const first = harness.service.start({ task: 'first task', mode: 'planning' });
    await first.done;
    const second = harness.service.start({ task: 'second task', sessionId: first.sessionId });
    expect(await second.done).toMatchObject({ status: 'finished', result: 'Second summary.' });
    const planRequests = harness.llm.chatRequests.filter((r) => classify(r.body).kind === 'plan');
    expect(planRequests).toHaveLength(2);
    const secondPrompt = JSON.stringify(planRequests[1].body.messages);
    expect(secondPrompt).toContain('Earlier work in this session');
    expect(secondPrompt).toContain('First summary: PAPAYA.');
    expect(plansOf(first.sessionId)).toHaveLength(2);
    // the follow-up keeps the session's name
    expect(harness.store.getSession(first.sessionId)?.title).toBe('first task');
  });

  it('cancel leaves the plan consistent; resume runs the cut step again and never a completed one', async () => {
    let hang = true;
    harness = await startCoreHarness(
      planningScript({
        step: (step) =>
          step.index === 1 && hang ? { text: 'working', delayMs: 30_000 } : finish(`Result of step ${step.index}`),
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Cancel me', mode: 'planning' });
    await waitFor(() => harness!.events.some((e) => e.type === 'step' && e.action === 'started' && e.stepIndex === 1));
    await harness.service.cancel(sessionId);
    expect((await done).status).toBe('cancelled');
    expect(plansOf(sessionId)[0].steps.map((s) => s.status)).toEqual(['completed', 'not_started', 'not_started']);

    hang = false;
    const resumed = harness.service.resume(sessionId);
    expect((await resumed.done).status).toBe('finished');
    expect(plansOf(sessionId)).toHaveLength(1);
    expect(plansOf(sessionId)[0].steps.map((s) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect([...stepStarts(bodies()).entries()]).toEqual([
      [0, 1],
      [1, 2],
      [2, 1],
    ]);
    const resumedNotice = ofType(harness.store.listEvents(sessionId), 'notice').find((n) => n.code === 'flow_resumed');
    expect(resumedNotice?.text).toContain('from step 1: Write draft');
  });

  it('runs independent steps at the same time with separate agents and merges results in plan order', async () => {
    harness = await startCoreHarness(
      planningScript({
        plan: () => createPlan('Parallel', ['Slow research', 'Fast research', 'Combine'], [[], [], [0, 1]]),
        step: (step) =>
          step.index === 0
            ? { ...finish('slow result'), delayMs: 600 }
            : step.index === 1
              ? { ...finish('fast result'), delayMs: 100 }
              : finish('combined'),
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Research two things', mode: 'planning', parallel: 2 });
    expect((await done).status).toBe('finished');
    const steps = ofType(harness.store.listEvents(sessionId), 'step');
    const at = (index: number, action: string) => steps.find((e) => e.stepIndex === index && e.action === action)!;
    // both started before either finished: they overlapped
    expect(at(0, 'started').ts).toBeLessThan(at(1, 'completed').ts);
    expect(at(1, 'started').ts).toBeLessThan(at(0, 'completed').ts);
    // the fast one finished first
    expect(at(1, 'completed').seq).toBeLessThan(at(0, 'completed').seq);
    expect(at(2, 'started').seq).toBeGreaterThan(at(0, 'completed').seq);
    const combine = bodies()
      .map(classify)
      .find((k) => k.kind === 'step' && k.index === 2);
    const prompt = combine && 'prompt' in combine ? combine.prompt : '';
    expect(prompt.indexOf('Step 0 (Slow research): slow result')).toBeGreaterThan(-1);
    expect(prompt.indexOf('Step 0 (Slow research)')).toBeLessThan(prompt.indexOf('Step 1 (Fast research)'));
    const summary = bodies()
      .map(classify)
      .find((k) => k.kind === 'summary');
    const summaryPrompt = summary && 'prompt' in summary ? summary.prompt : '';
    expect(summaryPrompt.indexOf('slow result')).toBeLessThan(summaryPrompt.indexOf('fast result'));
    expect(plansOf(sessionId)[0].parallel).toBe(2);
  });

  it('starts a step as soon as what it needs is done, and a revision while a step runs does not lose it', async () => {
    let revised = false;
    harness = await startCoreHarness(
      planningScript({
        plan: () => createPlan('Pool', ['Slow A', 'Fast B', 'After B'], [[], [], [1]]),
        step: (step) =>
          step.text === 'Slow A' ? { ...finish('slow result'), delayMs: 1500 } : finish(`result of ${step.text}`),
        revise: (revise) => {
          if (revised || !revise.prompt.includes('Step 1 completed')) return { text: 'continue' };
          revised = true;
          return {
            toolCalls: [
              call('planning', {
                command: 'update',
                steps: ['Set up', 'Slow A', 'Fast B', 'After B'],
                step_dependencies: [[], [], [], [2]],
              }),
            ],
          };
        },
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Pool', mode: 'planning', parallel: 2 });
    expect((await done).status).toBe('finished');
    const steps = ofType(harness.store.listEvents(sessionId), 'step');
    const seqOf = (text: string, action: string) =>
      steps.find((e) => e.description === text && e.action === action)!.seq;
    // "After B" did not wait for the slow step
    expect(seqOf('After B', 'started')).toBeLessThan(seqOf('Slow A', 'completed'));
    expect(seqOf('Set up', 'started')).toBeLessThan(seqOf('Slow A', 'completed'));
    // the slow step was moved from index 0 to 1 while it ran, and its result landed on it
    expect(steps.find((e) => e.description === 'Slow A' && e.action === 'completed')?.stepIndex).toBe(1);
    expect(plansOf(sessionId)[0].steps.map((s) => [s.text, s.status, s.notes, s.runs])).toEqual([
      ['Set up', 'completed', 'result of Set up', 1],
      ['Slow A', 'completed', 'slow result', 1],
      ['Fast B', 'completed', 'result of Fast B', 1],
      ['After B', 'completed', 'result of After B', 1],
    ]);
  });

  it('refuses an unknown agent with the list of known ones, before the session starts', async () => {
    harness = await startCoreHarness(planningScript());
    expect(() => harness!.service.start({ task: 'x', mode: 'planning', agents: ['manus', 'wizard'] })).toThrow(
      'Unknown agent: wizard. Known agents: manus',
    );
  });
});
