import { afterEach, describe, expect, it } from 'vitest';
import type { CoreApi } from '../../src/main/api/core-api.js';
import type { CoreEvent } from '../../src/shared/events.js';
import { MAX_EVENT_WINDOW, type SessionOutline } from '../../src/shared/contract.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { coreApiOver } from '../support/core-api-harness.js';

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function apiWithSession(events: number): Promise<{ api: CoreApi; sessionId: string }> {
  harness = await startCoreHarness(sequence({ text: 'unused' }));
  const api = coreApiOver(harness);
  const session = harness.store.createSession({
    title: 'Windowed',
    mode: 'agent',
    model: 'fake-model',
    workspace: harness.dataDir,
    status: 'finished',
  });
  for (let index = 1; index <= events; index += 1) {
    harness.store.appendEvent({
      type: 'message',
      sessionId: session.id,
      messageId: `m${index}`,
      role: 'assistant',
      text: `event ${index}`,
      delta: false,
      ts: Date.now(),
    });
  }
  return { api, sessionId: session.id };
}

async function seqsOf(api: CoreApi, payload: unknown): Promise<number[]> {
  const result = await api.invoke('getEventWindow', payload);
  if (!result.ok) throw new Error(result.error.message);
  return (result.value as CoreEvent[]).map((event) => event.seq);
}

describe('event window requests', () => {
  it('serves the last events, the ones before a seq and the ones after it', async () => {
    const { api, sessionId } = await apiWithSession(40);
    expect(await seqsOf(api, { sessionId, limit: 3 })).toEqual([38, 39, 40]);
    expect(await seqsOf(api, { sessionId, beforeSeq: 38, limit: 3 })).toEqual([35, 36, 37]);
    expect(await seqsOf(api, { sessionId, afterSeq: 38, limit: 3 })).toEqual([39, 40]);
    expect(await seqsOf(api, { sessionId })).toHaveLength(40);
  });

  it('outlines a session and says when there is none', async () => {
    const { api, sessionId } = await apiWithSession(12);
    const outline = await api.invoke('getSessionOutline', { sessionId });
    expect(outline.ok && (outline.value as SessionOutline)).toMatchObject({
      session: { id: sessionId, title: 'Windowed' },
      running: false,
      firstSeq: 1,
      lastSeq: 12,
      eventCount: 12,
      planEvents: [],
    });
    expect(await api.invoke('getSessionOutline', { sessionId: 'missing' })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: 'No session missing.' },
    });
  });

  it('refuses a window that is unbounded, negative or both ways, with a readable reason', async () => {
    const { api, sessionId } = await apiWithSession(1);
    const tooLarge = await api.invoke('getEventWindow', { sessionId, limit: MAX_EVENT_WINDOW + 1 });
    expect(tooLarge).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(!tooLarge.ok && tooLarge.error.message).toContain('limit');
    const negative = await api.invoke('getEventWindow', { sessionId, beforeSeq: -1 });
    expect(!negative.ok && negative.error.message).toContain('beforeSeq');
    const bothWays = await api.invoke('getEventWindow', { sessionId, beforeSeq: 5, afterSeq: 1 });
    expect(!bothWays.ok && bothWays.error.message).toContain('give beforeSeq or afterSeq, not both');
    const noSession = await api.invoke('getEventWindow', { limit: 10 });
    expect(!noSession.ok && noSession.error.message).toContain('sessionId');
  });
});
