import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportSessionMarkdown } from '../../src/main/store/export.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { classify, finish, PLAN_ACT_PLAN, planActScript } from './flow-script.js';
import { ofType } from '../support/events-of-type.js';

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** a one-pixel PNG: a chart as far as the flow is concerned */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const report = (success: boolean, result: string, attachments: string[] = []) =>
  JSON.stringify({ success, result, attachments });

function planActRequests() {
  return harness!.llm.chatRequests.map((request) => classify(request.body));
}

describe('Plan-Act as the seed specifies it', () => {
  it('shows each step result as a message of its step with its files, never the executor JSON, live, stored and exported', async () => {
    let workspace = '';
    harness = await startCoreHarness(
      planActScript({
        step: (step) => {
          if (step.id === 'a' && step.first) writeFileSync(join(workspace, 'chart.png'), PNG);
          // prose, then the report in a fence: the streamed prose shows, the JSON never does
          const answer =
            step.id === 'a'
              ? `Here is my report.\n\`\`\`json\n${report(true, 'Sales rose 12% in March.', ['chart.png'])}\n\`\`\``
              : report(true, 'The report is written.');
          return finish(answer);
        },
      }),
    );
    const { sessionId, done } = harness.service.start({ task: '写一份报告', mode: 'plan_act' });
    workspace = harness.store.getSession(sessionId)!.workspace;
    expect((await done).status).toBe('finished');

    const stored = harness.store.listEvents(sessionId);
    for (const events of [harness.events, stored]) {
      const texts = ofType(events, 'message').map((message) => message.text);
      expect(texts.join('\n')).not.toContain('"success"');
      expect(texts.join('\n')).not.toContain('{"');
    }
    const [plan] = harness.store.plans.list(sessionId);
    const stepMessages = ofType(stored, 'message').filter((m) => m.step && !m.delta);
    expect(stepMessages.map((m) => [m.step?.stepIndex, m.agent, m.text, m.attachments ?? []])).toEqual([
      [0, 'manus', 'Sales rose 12% in March.', ['chart.png']],
      [1, 'manus', 'The report is written.', []],
    ]);
    expect(stepMessages.every((m) => m.step?.planId === plan.id)).toBe(true);
    expect(stepMessages[0].images?.map((image) => image.path)).toEqual(['chart.png']);
    // the prose before the report streamed under the same message, which the result then replaced
    const streamed = ofType(stored, 'message').filter((m) => m.delta && m.messageId === stepMessages[0].messageId);
    expect(streamed.map((m) => m.text).join('')).toBe('Here is my report.\n');

    const markdown = exportSessionMarkdown(harness.store, sessionId);
    expect(markdown).not.toMatch(/"success"\s*:/);
    expect(markdown).toContain('Sales rose 12% in March.');
    expect(markdown).toContain('![image 1](chart.png)');
  });

  it('gives plan and step events the seed fields, and runs each step on the agent its type or [TAG] names', async () => {
    harness = await startCoreHarness(
      planActScript({
        create: () => ({
          text: JSON.stringify({
            ...PLAN_ACT_PLAN,
            steps: [
              { id: 'a', description: 'Chart the sales', type: 'data_analysis' },
              { id: 'b', description: '[BROWSER] Read the price page' },
              { id: 'c', description: 'Write the report file' },
            ],
          }),
        }),
        update: (update) => ({
          text: JSON.stringify({
            steps: update.prompt.includes('"id":"a"')
              ? [
                  { id: 'b', description: '[BROWSER] Read the price page' },
                  { id: 'c', description: 'Write the report file' },
                ]
              : [{ id: 'c', description: 'Write the report file' }],
          }),
        }),
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Sales report', mode: 'plan_act' });
    expect((await done).status).toBe('finished');

    const events = harness.store.listEvents(sessionId);
    const created = ofType(events, 'plan').find((e) => e.action === 'created')!;
    expect(created.plan).toMatchObject({
      goal: 'Write a report file',
      language: 'zh',
      message: '我会分两步完成。',
      steps: [
        { id: 'a', text: 'Chart the sales', status: 'not_started', agent: 'data_analysis' },
        { id: 'b', text: '[BROWSER] Read the price page', agent: 'browser' },
        { id: 'c', text: 'Write the report file', agent: 'manus' },
      ],
    });
    const finished = ofType(events, 'step').filter((e) => e.action === 'completed');
    expect(finished.map((e) => [e.description, e.agent, e.result, e.attachments])).toEqual([
      ['Chart the sales', 'data_analysis', 'done a', []],
      ['[BROWSER] Read the price page', 'browser', 'done b', []],
      ['Write the report file', 'manus', 'done c', []],
    ]);
    const last = ofType(events, 'plan').at(-1)!;
    expect(last.action).toBe('completed');
    expect(last.plan.steps.map((step) => [step.id, step.status, step.result])).toEqual([
      ['a', 'completed', 'done a'],
      ['b', 'completed', 'done b'],
      ['c', 'completed', 'done c'],
    ]);
    // each step's model request carried its agent's own tools
    const stepTools = new Map(
      planActRequests().flatMap((k) => (k.kind === 'pa_step' && k.first ? [[k.id, k.tools]] : [])),
    );
    expect(stepTools.get('a')).toEqual(expect.arrayContaining(['python_execute']));
    expect(stepTools.get('a')).not.toContain('browser_use');
    expect(stepTools.get('b')).toEqual(['browser_use', 'terminate']);
    expect(stepTools.get('c')).toEqual(expect.arrayContaining(['python_execute', 'bash', 'browser_use']));
    // the planner was told which agents a step's type may name
    const createPrompt = planActRequests().find((k) => k.kind === 'pa_create');
    expect(createPrompt && 'prompt' in createPrompt ? createPrompt.prompt : '').toMatch(/- data_analysis: .*\n- /);
  });

  it('sends a failed step back to the planner with its error, runs the replanned steps and finishes', async () => {
    harness = await startCoreHarness(
      planActScript({
        step: (step) =>
          step.id === 'b'
            ? finish(report(false, 'The price page answered 503.'))
            : finish(report(true, `done ${step.id}`)),
        update: (update) =>
          update.prompt.includes('FAILED')
            ? { text: '{"steps": [{"id": "b2", "description": "Use the cached prices instead"}]}' }
            : { text: '{"steps": [{"id": "b", "description": "Write the report file"}]}' },
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Report', mode: 'plan_act' });
    const result = await done;
    expect(result).toMatchObject({ status: 'finished', result: '报告已完成。' });

    const [plan] = harness.store.plans.list(sessionId);
    expect(plan.steps.map((s) => [s.key, s.status, s.error ?? ''])).toEqual([
      ['a', 'completed', ''],
      ['b', 'blocked', 'The price page answered 503.'],
      ['b2', 'completed', ''],
    ]);
    const replan = planActRequests().find((k) => k.kind === 'pa_update' && k.prompt.includes('FAILED'));
    const prompt = replan && 'prompt' in replan ? replan.prompt : '';
    expect(prompt).toContain('That step FAILED. Replan');
    expect(prompt).toContain('"error":"The price page answered 503."');
    const events = harness.store.listEvents(sessionId);
    expect(ofType(events, 'step').map((e) => `${e.description}:${e.action}`)).toEqual([
      'Collect the numbers:started',
      'Collect the numbers:completed',
      'Write the report file:started',
      'Write the report file:failed',
      'Use the cached prices instead:started',
      'Use the cached prices instead:completed',
    ]);
    expect(ofType(events, 'step').find((e) => e.action === 'failed')?.error).toBe('The price page answered 503.');
    expect(ofType(events, 'notice').find((n) => n.code === 'replanned')?.text).toContain('(1 of 3)');
  });

  it('ends with a clear reason when a step fails past planAct.maxReplans', async () => {
    harness = await startCoreHarness(
      planActScript({
        step: (step) => finish(report(false, `broken ${step.id}`)),
        update: () => ({ text: '{"steps": [{"id": "retry", "description": "Try another way"}]}' }),
        summary: () => ({ text: '{"message": "Nothing worked.", "attachments": []}' }),
      }),
      { settings: { planAct: { maxReplans: 1 } } },
    );
    const { sessionId, done } = harness.service.start({ task: 'Report', mode: 'plan_act' });
    const result = await done;
    expect(result.status).toBe('failed');
    expect(result.result).toBe(
      'Step retry (Try another way) failed: broken retry. The replan limit (1, setting planAct.maxReplans) was reached.\n\nNothing worked.',
    );
    const kinds = planActRequests().map((k) => k.kind);
    expect(kinds.filter((k) => k === 'pa_update')).toHaveLength(1);
    const notices = ofType(harness.store.listEvents(sessionId), 'notice').map((n) => n.code);
    expect(notices).toContain('plan_replan_limit');
    expect(harness.store.plans.list(sessionId)[0].status).toBe('stopped');
  });

  it('ends when the planner finds no way around a failed step, and a resume asks it again', async () => {
    let giveUp = true;
    harness = await startCoreHarness(
      planActScript({
        step: (step) => finish(report(step.id !== 'b', step.id === 'b' ? 'The disk is full.' : `done ${step.id}`)),
        update: (update) =>
          update.prompt.includes('FAILED') && !giveUp
            ? { text: '{"steps": [{"id": "c", "description": "Write it to the other disk"}]}' }
            : {
                text: update.prompt.includes('FAILED')
                  ? '{"steps": []}'
                  : '{"steps": [{"id": "b", "description": "Write the report file"}]}',
              },
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Report', mode: 'plan_act' });
    const first = await done;
    expect(first.status).toBe('failed');
    expect(first.result).toMatch(
      /^Step b \(Write the report file\) failed: The disk is full\. The planner found no other way to the goal\./,
    );
    giveUp = false;
    expect((await harness.service.resume(sessionId).done).status).toBe('finished');
    const [plan] = harness.store.plans.list(sessionId);
    expect(plan.steps.map((s) => [s.key, s.status])).toEqual([
      ['a', 'completed'],
      ['b', 'blocked'],
      ['c', 'completed'],
    ]);
    expect(plan.status).toBe('completed');
  });

  it('ends with a clear reason at planAct.maxStepsPerPlan, the limit given to the planner summary', async () => {
    let added = 0;
    harness = await startCoreHarness(
      planActScript({
        // the planner always finds two more things to do
        update: () => ({
          text: JSON.stringify({
            steps: [1, 2].map(() => ({ id: `more${++added}`, description: `One more step (${added})` })),
          }),
        }),
        summary: (summary) => ({
          text: JSON.stringify({ message: summary.prompt.includes('limit of 2 steps') ? 'Stopped early.' : 'Done.' }),
        }),
      }),
      { settings: { planAct: { maxStepsPerPlan: 2 } } },
    );
    const { sessionId, done } = harness.service.start({ task: 'Endless', mode: 'plan_act' });
    const result = await done;
    expect(result.status).toBe('failed');
    expect(result.result).toBe(
      'The plan reached its limit of 2 steps (setting planAct.maxStepsPerPlan); the steps left were not run.\n\nStopped early.',
    );
    expect(planActRequests().filter((k) => k.kind === 'pa_step' && k.first)).toHaveLength(2);
    const notices = ofType(harness.store.listEvents(sessionId), 'notice').map((n) => n.code);
    expect(notices).toContain('plan_step_limit');
  });

  it('gives the planner the next-step prompt (plan so far, results, what remains) and ends with its summary', async () => {
    harness = await startCoreHarness(
      planActScript({
        create: () => ({
          text: JSON.stringify({
            ...PLAN_ACT_PLAN,
            steps: [...PLAN_ACT_PLAN.steps, { id: 'c', description: 'Send it', type: 'manus' }],
          }),
        }),
        update: (update) => ({
          text: JSON.stringify({
            steps: update.prompt.includes('"id":"a"')
              ? [
                  { id: 'b', description: 'Write the report file' },
                  { id: 'c', description: 'Send it' },
                ]
              : [{ id: 'c', description: 'Send it' }],
          }),
        }),
        summary: () => ({ text: '{"message": "The report was written and sent.", "attachments": []}' }),
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Report and send', mode: 'plan_act' });
    expect(await done).toMatchObject({ status: 'finished', result: 'The report was written and sent.' });

    const updates = planActRequests().filter((k) => k.kind === 'pa_update');
    const second = updates[1] && 'prompt' in updates[1] ? updates[1].prompt : '';
    expect(second).toContain('CURRENT PLAN STATUS:');
    expect(second).toContain('Progress: 2/3 steps completed');
    expect(second).toMatch(
      /RESULTS SO FAR:\n- a \(Collect the numbers\): done a\n- b \(Write the report file\): done b/,
    );
    expect(second).toContain('"id":"b"');
    expect(second).toContain('STEPS STILL TO DO:\n- c: Send it (type: manus)');
    const events = harness.store.listEvents(sessionId);
    const last = ofType(events, 'message').at(-1);
    expect([last?.agent, last?.text]).toEqual(['planner', 'The report was written and sent.']);
    expect(ofType(events, 'done').at(-1)?.result).toBe('The report was written and sent.');
  });
});
