import { afterEach, describe, expect, it } from 'vitest';
import type { CoreApi } from '../../src/main/api/core-api.js';
import type { SessionSummary } from '../../src/shared/contract.js';
import type { Script } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { call, finish, planningScript } from '../flow/flow-script.js';
import { waitFor } from '../support/wait-for.js';
import { coreApiOver, invokeOk } from '../support/core-api-harness.js';

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function coreApi(script: Script): Promise<CoreApi> {
  harness = await startCoreHarness(script);
  return coreApiOver(harness);
}

describe('the API of flow choices and waiting sessions', () => {
  it('lists the agents a flow may use and stores the choices a startTask sends', async () => {
    const api = await coreApi(planningScript());
    const info = await invokeOk<{ agents: string[]; defaultFlowAgents: string[] }>(api, 'appInfo', {});
    expect([...info.agents].sort()).toEqual(['browser', 'data_analysis', 'manus', 'swe']);
    expect(info.defaultFlowAgents).toEqual(['manus']);

    const { sessionId } = await invokeOk<{ sessionId: string }>(api, 'startTask', {
      task: 'Report',
      mode: 'plan_act',
      agents: ['swe', 'browser'],
      parallel: 3,
    });
    const summary = await invokeOk<SessionSummary>(api, 'getSession', { sessionId });
    expect(summary.session).toMatchObject({ mode: 'plan_act', agents: ['swe', 'browser'], parallel: 3 });
    await waitFor(() => !harness!.service.isRunning(sessionId), 20_000, 'the run to end');

    const refused = await api.invoke('startTask', { task: 'x', mode: 'planning', agents: ['wizard'] });
    expect(refused).toMatchObject({ ok: false, error: { code: 'unknown_agent' } });
    const tooMany = await api.invoke('startTask', { task: 'x', mode: 'planning', parallel: 99 });
    expect(tooMany).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('lists a session waiting for an answer under the `waiting` status, and answering it runs it on', async () => {
    const api = await coreApi(({ index }) =>
      index === 0 ? { toolCalls: [call('ask_human', { inquire: 'Which one?' })] } : finish('Done.'),
    );
    const asked = new Promise<{ askId: string }>((resolve) => {
      const stop = api.onEvent((event) => {
        if (event.type === 'ask' && event.status === 'waiting') {
          stop();
          resolve(event);
        }
      });
    });
    const { sessionId } = await invokeOk<{ sessionId: string }>(api, 'startTask', { task: 'Pick one' });
    const { askId } = await asked;
    const waiting = await invokeOk<SessionSummary[]>(api, 'listSessions', { status: 'waiting' });
    expect(waiting.map((summary) => [summary.session.id, summary.running])).toEqual([[sessionId, true]]);

    await invokeOk(api, 'answer', { sessionId, askId, answer: 'the first' });
    await waitFor(() => harness!.store.getSession(sessionId)?.status === 'finished', 20_000, 'the run to finish');
    expect(await invokeOk<SessionSummary[]>(api, 'listSessions', { status: 'waiting' })).toEqual([]);
  });
});
