import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { classify, finish, PLAN_ACT_PLAN as PLAN, planActScript } from './flow-script.js';
import { waitFor } from '../support/wait-for.js';
import { ofType } from '../support/events-of-type.js';

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('Plan-Act', () => {
  it('asks the planner again after invalid JSON, then executes the valid plan step by step', async () => {
    let workspace = '';
    harness = await startCoreHarness(
      planActScript({
        create: (create) =>
          create.retry ? { text: '```json\n' + JSON.stringify(PLAN) + '\n```' } : { text: 'Sure! {title: oops' },
        step: (step) => {
          // the step's work lands in the workspace (as a tool of the executor would write it)
          if (step.id === 'b' && step.first) writeFileSync(join(workspace, 'report.md'), '# Report\n');
          return finish(
            JSON.stringify({
              success: true,
              result: `done ${step.id}`,
              attachments: step.id === 'b' ? ['report.md'] : [],
            }),
          );
        },
      }),
    );
    const { sessionId, done } = harness.service.start({ task: '写一份报告', mode: 'plan_act' });
    workspace = harness.store.getSession(sessionId)!.workspace;
    const result = await done;
    expect(result.status).toBe('finished');
    expect(result.result).toBe('报告已完成。\n\nFiles:\n- report.md');

    const creates = harness.llm.chatRequests.map((r) => classify(r.body)).filter((k) => k.kind === 'pa_create');
    expect(creates.map((k) => k.kind === 'pa_create' && k.retry)).toEqual([false, true]);
    const retryMessages = JSON.stringify(
      harness.llm.chatRequests.find(
        (r) => classify(r.body).kind === 'pa_create' && JSON.stringify(r.body.messages).includes('not usable'),
      )?.body.messages,
    );
    expect(retryMessages).toContain('not valid JSON');

    const [plan] = harness.store.plans.list(sessionId);
    expect(plan).toMatchObject({
      kind: 'plan_act',
      title: '数据报告',
      language: 'zh',
      goal: 'Write a report file',
      status: 'completed',
    });
    expect(plan.steps.map((s) => [s.key, s.status, s.result, s.success, s.attachments])).toEqual([
      ['a', 'completed', 'done a', true, []],
      ['b', 'completed', 'done b', true, ['report.md']],
    ]);
    const events = harness.store.listEvents(sessionId);
    expect(ofType(events, 'notice').some((n) => n.code === 'planner_retry')).toBe(true);
    expect(ofType(events, 'title')).toEqual([]);
    expect(harness.store.getSession(sessionId)?.title).toBe('写一份报告');
    expect(ofType(events, 'message').some((m) => m.agent === 'planner' && m.text === '我会分两步完成。')).toBe(true);
    expect(ofType(events, 'step').map((e) => `${e.stepIndex}:${e.action}`)).toEqual([
      '0:started',
      '0:completed',
      '1:started',
      '1:completed',
    ]);
    expect(ofType(events, 'plan').at(-1)?.action).toBe('completed');
    const stepPrompt = harness.llm.chatRequests
      .map((r) => classify(r.body))
      .find((k) => k.kind === 'pa_step' && k.id === 'b');
    expect(stepPrompt && 'prompt' in stepPrompt ? stepPrompt.prompt : '').toContain('write in this language: zh');
    expect(stepPrompt && 'prompt' in stepPrompt ? stepPrompt.prompt : '').toContain(
      'Step a (Collect the numbers): done a',
    );
  });

  it('lets the planner rewrite the remaining steps after each step', async () => {
    harness = await startCoreHarness(
      planActScript({
        update: (update) =>
          update.prompt.includes('"id":"a"')
            ? {
                text: '{"steps": [{"id": "c", "description": "Check the sources"}, {"id": "d", "description": "Write it up"}]}',
              }
            : { text: '{"steps": [{"id": "d", "description": "Write it up"}]}' },
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Research', mode: 'plan_act' });
    expect((await done).status).toBe('finished');
    // each phase of the turn is an event: the planner plans, each step executes, the planner updates, and it ends
    expect(ofType(harness.store.listEvents(sessionId), 'phase').map((event) => event.phase)).toEqual([
      'planning',
      'executing',
      'updating',
      'executing',
      'updating',
      'executing',
      'completed',
    ]);
    const [plan] = harness.store.plans.list(sessionId);
    expect(plan.steps.map((s) => [s.key, s.text, s.status])).toEqual([
      ['a', 'Collect the numbers', 'completed'],
      ['c', 'Check the sources', 'completed'],
      ['d', 'Write it up', 'completed'],
    ]);
  });

  it('gives up after three invalid plans and runs the task as one step, and ends with a plain report when the summary fails', async () => {
    harness = await startCoreHarness(
      planActScript({
        create: () => ({ text: '{"title": 5}' }),
        summary: () => ({ text: 'not json' }),
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Just do it', mode: 'plan_act' });
    const result = await done;
    expect(result.status).toBe('finished');
    expect(result.result).toContain('1. Just do it: done 1');
    const kinds = harness.llm.chatRequests.map((r) => classify(r.body).kind);
    expect(kinds.filter((k) => k === 'pa_create')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'pa_summary')).toHaveLength(3);
    const codes = ofType(harness.store.listEvents(sessionId), 'notice').map((n) => n.code);
    expect(codes).toEqual(expect.arrayContaining(['default_plan', 'summary_report']));
  });

  it('answers an infeasible task with the planner message and no steps', async () => {
    harness = await startCoreHarness(
      planActScript({
        create: () => ({ text: JSON.stringify({ ...PLAN, steps: [], message: 'This cannot be done offline.' }) }),
      }),
    );
    const { done } = harness.service.start({ task: 'Book a flight', mode: 'plan_act' });
    expect(await done).toMatchObject({ status: 'finished', result: 'This cannot be done offline.' });
  });

  it('cancel mid-step then resume continues at the unfinished step', async () => {
    let hang = true;
    harness = await startCoreHarness(
      planActScript({
        step: (step) =>
          step.id === 'b' && hang
            ? { text: 'working', delayMs: 30_000 }
            : finish(JSON.stringify({ success: true, result: `done ${step.id}`, attachments: [] })),
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Two steps', mode: 'plan_act' });
    await waitFor(() => harness!.events.some((e) => e.type === 'step' && e.action === 'started' && e.stepIndex === 1));
    await harness.service.cancel(sessionId);
    expect((await done).status).toBe('cancelled');
    expect(harness.store.plans.list(sessionId)[0].steps.map((s) => s.status)).toEqual(['completed', 'not_started']);
    hang = false;
    expect((await harness.service.resume(sessionId).done).status).toBe('finished');
    const firstRuns = harness.llm.chatRequests
      .map((r) => classify(r.body))
      .filter((k) => k.kind === 'pa_step' && k.first);
    expect(firstRuns.map((k) => (k.kind === 'pa_step' ? k.id : ''))).toEqual(['a', 'b', 'b']);
  });
});

describe('Plan-Act attachments the model reports', () => {
  let outside = '';
  let writer: ChildProcess | undefined;
  afterEach(() => {
    if (writer?.pid) process.kill(writer.pid);
    writer = undefined;
    if (outside) rmSync(outside, { recursive: true, force: true });
  });

  it('drops paths out of the workspace, links out and FIFOs with a note, never opening them; the run finishes', async () => {
    const secret = `host secret ${randomUUID()}`;
    outside = mkdtempSync(join(tmpdir(), 'manus-outside-'));
    writeFileSync(join(outside, 'secret.png'), `\x89PNG ${secret}`, 'latin1');
    const hostile = ['../../etc/passwd', '/etc/hostname', 'link.png', 'pipe.png', `${outside}/secret.png`];
    let workspace = '';
    harness = await startCoreHarness(
      planActScript({
        step: (step) => {
          if (step.first && step.id === 'a') {
            writeFileSync(join(workspace, 'chart.png'), '\x89PNG chart', 'latin1');
            symlinkSync(join(outside, 'secret.png'), join(workspace, 'link.png'));
            execFileSync('mkfifo', [join(workspace, 'pipe.png')]);
            // a writer waiting on the FIFO: a host that opened it would read this instead of blocking
            writer = spawn('sh', ['-c', `while :; do echo '${secret}' > '${join(workspace, 'pipe.png')}'; done`]);
          }
          const attachments = step.id === 'a' ? ['chart.png', ...hostile] : [];
          return finish(JSON.stringify({ success: true, result: `done ${step.id}`, attachments }));
        },
        summary: () => ({ text: JSON.stringify({ message: 'Done.', attachments: ['../../etc/shadow', 'chart.png'] }) }),
      }),
    );
    const { sessionId, done } = harness.service.start({ task: 'Draw a chart', mode: 'plan_act' });
    workspace = harness.store.getSession(sessionId)!.workspace;
    const result = await done;
    expect(result.status).toBe('finished');
    expect(result.result).toBe('Done.\n\nFiles:\n- chart.png');

    const [plan] = harness.store.plans.list(sessionId);
    expect(plan.steps[0].attachments).toEqual(['chart.png']);
    const events = harness.store.listEvents(sessionId);
    const notes = ofType(events, 'notice').filter((notice) => notice.code === 'attachments_refused');
    expect(notes.map((notice) => notice.text).join('\n')).toMatch(
      /\.\.\/\.\.\/etc\/passwd.*\/etc\/hostname.*link\.png.*symbolic link.*pipe\.png \(not a regular file\)/s,
    );
    expect(notes.at(-1)?.text).toContain('../../etc/shadow');
    const finalMessage = ofType(events, 'message').at(-1);
    expect(finalMessage?.images?.map((image) => image.path)).toEqual(['chart.png']);
    expect(JSON.stringify(events)).not.toContain(Buffer.from(`\x89PNG ${secret}`, 'latin1').toString('base64'));
    expect(JSON.stringify(events)).not.toContain(secret);
  });
});
