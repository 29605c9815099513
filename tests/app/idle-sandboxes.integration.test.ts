import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../src/main/app/app-core.js';
import { SESSION_LABEL } from '../../src/main/sandbox/container-spec.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { FileKeySecretBox } from '../../src/main/store/secrets.js';
import { openStore } from '../../src/main/store/store.js';
import type { SessionStore } from '../../src/main/store/store-api.js';
import { startFakeLlm, type FakeLlm, type ScriptRequest } from '../support/fake-llm/index.js';
import { waitFor } from '../support/wait-for.js';

const MAX_IDLE = 2;

let llm: FakeLlm;
let dataDir: string;
let store: SessionStore;
let core: AppCore;

/** Each turn's task is `turn-N`: its first answer runs a command printing `out-N`, the next one finishes. */
function turnScript(request: ScriptRequest) {
  const texts = (request.body.messages as unknown[]).map((message) => JSON.stringify(message));
  const turnAt = texts.findLastIndex((text) => /turn-\d+/.test(text));
  const turn = /turn-(\d+)/.exec(texts[turnAt] ?? '')?.[1] ?? '0';
  const ran = texts.slice(turnAt + 1).some((text) => text.includes(`out-${turn}`));
  if (ran) return { text: `Turn ${turn} done.`, toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
  return { toolCalls: [{ name: 'bash', arguments: { command: `printf 'out-%s\\n' ${turn}` } }] };
}

beforeAll(async () => {
  llm = await startFakeLlm(turnScript);
  dataDir = mkdtempSync(join(tmpdir(), 'manus-idle-cap-'));
  store = openStore(dataDir);
  core = createAppCore({
    dataDir,
    store,
    secrets: FileKeySecretBox.inDataDir(dataDir),
    humanAvailable: false,
    llmOverrides: { baseUrl: llm.baseUrl, model: 'test-model', apiKey: 'sk-test' },
    adjust: (settings) => ({ ...settings, sandbox: { ...settings.sandbox, maxIdleSandboxes: MAX_IDLE } }),
  });
});
afterAll(async () => {
  const sessions = store.listSessions().map((session) => session.id);
  await core.close();
  await Promise.all(sessions.map((id) => removeSessionSandbox(id)));
  store.close();
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function containerOf(sessionId: string): Promise<{ id: string; state: string }> {
  const found = await dockerClient().listContainers({
    all: true,
    filters: { label: [`${SESSION_LABEL}=${sessionId}`] },
  });
  expect(found).toHaveLength(1);
  return { id: found[0].Id, state: found[0].State };
}

async function statesOf(sessionIds: string[]): Promise<string[]> {
  return Promise.all(sessionIds.map(async (id) => (await containerOf(id)).state));
}

describe('warm sandboxes of finished sessions in a long-lived process', { timeout: 240_000 }, () => {
  it(`keeps at most sandbox.maxIdleSandboxes (${MAX_IDLE}) running, stopping the oldest idle; a stopped one comes back`, async () => {
    const sessionIds: string[] = [];
    for (let turn = 0; turn < 5; turn++) {
      const started = core.service.start({ task: `turn-${turn}` });
      expect((await started.done).status).toBe('finished');
      sessionIds.push(started.sessionId);
    }
    const expected = ['exited', 'exited', 'exited', 'running', 'running'];
    await waitFor(
      async () => (await statesOf(sessionIds)).join() === expected.join(),
      60_000,
      'the three oldest to stop',
      250,
    );
    const stoppedContainer = await containerOf(sessionIds[0]);

    const again = core.service.start({ sessionId: sessionIds[0], task: 'turn-5' });
    expect((await again.done).status).toBe('finished');
    const shown = JSON.stringify(store.listEvents(sessionIds[0]));
    expect(shown).toContain('out-5');
    expect(shown).toContain('was started again');
    // the same container came back, and the oldest idle one (session 3) made room for it
    expect(await containerOf(sessionIds[0])).toEqual({ id: stoppedContainer.id, state: 'running' });
    const after = ['running', 'exited', 'exited', 'exited', 'running'];
    await waitFor(
      async () => (await statesOf(sessionIds)).join() === after.join(),
      60_000,
      'session 3 to make room',
      250,
    );
  });
});
