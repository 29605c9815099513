import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/shared/events.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { call, finish, planningScript } from '../flow/flow-script.js';
import { openStore } from '../../src/main/store/store.js';
import { exportSessionMarkdown } from '../../src/main/store/export.js';

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The statuses the session went through, as its stored `session` events say. */
function statusTrail(sessionId: string): string[] {
  return harness!.store
    .listEvents(sessionId)
    .filter((event): event is Extract<CoreEvent, { type: 'session' }> => event.type === 'session')
    .map((event) => event.session.status);
}

function untilAsked(): Promise<Extract<CoreEvent, { type: 'ask' }>> {
  return new Promise((resolve) => {
    const off = harness!.service.subscribe((event) => {
      if (event.type === 'ask' && event.status === 'waiting') {
        off();
        resolve(event);
      }
    });
  });
}

describe('a session waiting for the person', () => {
  it('is `waiting` while a question is open, stored and listed so, and `running` again once answered', async () => {
    harness = await startCoreHarness(
      sequence({ toolCalls: [call('ask_human', { inquire: 'Which colour?' })] }, finish('You chose blue.')),
    );
    const asked = untilAsked();
    const { sessionId, done } = harness.service.start({ task: 'Pick a colour with me' });
    const ask = await asked;
    expect(harness.store.getSession(sessionId)?.status).toBe('waiting');
    expect(harness.store.listSessions({ status: 'waiting' }).map((session) => session.id)).toEqual([sessionId]);
    expect(harness.service.isRunning(sessionId)).toBe(true);

    expect(harness.service.answer(sessionId, ask.askId, 'blue')).toBe(true);
    expect(harness.store.getSession(sessionId)?.status).toBe('running');
    expect(await done).toMatchObject({ status: 'finished', result: 'You chose blue.' });
    expect(statusTrail(sessionId)).toEqual(['running', 'waiting', 'running', 'finished']);
  });

  it('a run cancelled while waiting ends `cancelled`, not `running`', async () => {
    harness = await startCoreHarness(sequence({ toolCalls: [call('ask_human', { inquire: 'Still there?' })] }));
    const asked = untilAsked();
    const { sessionId, done } = harness.service.start({ task: 'wait for me' });
    await asked;
    await harness.service.cancel(sessionId);
    expect(await done).toMatchObject({ status: 'cancelled' });
    expect(harness.store.getSession(sessionId)?.status).toBe('cancelled');
    expect(statusTrail(sessionId).at(-1)).toBe('cancelled');
  });

  it('a session left waiting by a process that is gone shows as interrupted at the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'manus-waiting-dead-'));
    // a row as a killed process leaves it: `waiting`, and no live process holding its run marker
    const before = openStore(dataDir);
    const left = before.createSession({
      title: 'asked',
      mode: 'agent',
      model: 'm',
      workspace: dataDir,
      status: 'waiting',
    });
    before.close();
    harness = await startCoreHarness(sequence(finish('unused')), { dataDir });
    expect(harness.store.getSession(left.id)?.status).toBe('interrupted');
    expect(statusTrail(left.id)).toEqual(['interrupted']);
  });
});

describe("a session's flow choices", () => {
  it('keeps the chosen agents and parallel steps for follow-ups, and hands them to the flow', async () => {
    harness = await startCoreHarness(planningScript());
    const first = harness.service.start({
      task: 'Write a short report',
      mode: 'planning',
      agents: ['manus', 'data_analysis', 'manus'],
      parallel: 2,
    });
    expect(harness.store.getSession(first.sessionId)).toMatchObject({
      mode: 'planning',
      agents: ['manus', 'data_analysis'],
      parallel: 2,
    });
    expect(await first.done).toMatchObject({ status: 'finished' });
    expect(harness.store.plans.list(first.sessionId)[0]).toMatchObject({
      agents: ['manus', 'data_analysis'],
      parallel: 2,
    });
    // what `manus sessions show` prints
    const shown = exportSessionMarkdown(harness.store, first.sessionId);
    expect(shown).toContain('- Agents: manus, data_analysis');
    expect(shown).toContain('- Parallel steps: 2');

    // a follow-up that names no choices runs with the session's
    const followUp = harness.service.start({ task: 'And a second report', sessionId: first.sessionId });
    expect(await followUp.done).toMatchObject({ status: 'finished' });
    const plans = harness.store.plans.list(first.sessionId);
    expect(plans).toHaveLength(2);
    expect(plans[1]).toMatchObject({ kind: 'planning', agents: ['manus', 'data_analysis'], parallel: 2 });

    // a new choice replaces the old one
    const changed = harness.service.start({ task: 'Third', sessionId: first.sessionId, agents: ['swe'], parallel: 1 });
    await changed.done;
    expect(harness.store.getSession(first.sessionId)).toMatchObject({ mode: 'planning', agents: ['swe'], parallel: 1 });
  });

  it('refuses an unknown agent before anything is written', async () => {
    harness = await startCoreHarness(planningScript());
    expect(() => harness!.service.start({ task: 'x', mode: 'planning', agents: ['manus', 'wizard'] })).toThrowError(
      expect.objectContaining({ code: 'unknown_agent', message: expect.stringContaining('wizard') }),
    );
    expect(harness.store.listSessions()).toEqual([]);
  });

  it('lists the agents a flow may use', async () => {
    harness = await startCoreHarness(planningScript());
    expect(harness.service.agentNames().sort()).toEqual(['browser', 'data_analysis', 'manus', 'swe']);
  });
});
