import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppCore } from '../../src/main/app/app-core.js';
import type { CoreEvent } from '../../src/shared/events.js';
import { closeSharedBrowsers, sharedBrowserCount } from '../../src/main/browser/browser-launcher.js';
import { SESSION_LABEL } from '../../src/main/sandbox/container-spec.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { FileKeySecretBox } from '../../src/main/store/secrets.js';
import { openStore } from '../../src/main/store/store.js';
import { CHROMIUM } from '../browser/browser-test-kit.js';
import { startFakeLlm, type Script, type ScriptRequest } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { waitFor } from '../support/wait-for.js';

/** the command line of the sandbox's Python and shell drivers (both run the driver source with python3) */
const DRIVER_COMMAND = 'python3 -u -c';

let harness: CoreHarness | undefined;
const sessionIds: string[] = [];

afterEach(async () => {
  await harness?.close();
  harness = undefined;
  await Promise.all(sessionIds.splice(0).map((id) => removeSessionSandbox(id)));
  await closeSharedBrowsers();
});

const finish = { text: 'Done.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };

async function containersOf(sessionId: string | undefined) {
  if (!sessionId) return [];
  return dockerClient().listContainers({ all: true, filters: { label: [`${SESSION_LABEL}=${sessionId}`] } });
}

/** Host pids of the driver processes running in the session's one container. */
async function driverPids(sessionId: string): Promise<string[]> {
  const [info] = await containersOf(sessionId);
  if (!info || info.State !== 'running') return [];
  const top = (await dockerClient().getContainer(info.Id).top()) as { Titles: string[]; Processes: string[][] };
  const pidAt = top.Titles.indexOf('PID');
  const commandAt = top.Titles.indexOf('CMD');
  return top.Processes.filter((row) => row[commandAt]?.startsWith(DRIVER_COMMAND))
    .map((row) => row[pidAt])
    .sort();
}

function toolTexts(request: ScriptRequest): string[] {
  const messages = request.body.messages as { role: string; content: unknown }[];
  return messages.filter((message) => message.role === 'tool').map((message) => JSON.stringify(message.content));
}

/** Starts a turn whose script can name its session (the script runs after `start` returned). */
async function startTurn(
  script: (request: ScriptRequest, sessionId: string) => ReturnType<Script>,
  settings: Parameters<typeof startCoreHarness>[1] = {},
  request: Parameters<CoreHarness['service']['start']>[0] = { task: 'warm-up test' },
) {
  let sessionId = '';
  harness = await startCoreHarness((scripted) => script(scripted, sessionId), {
    ...settings,
    service: { warmUpParts: true, ...settings.service },
  });
  const started = harness.service.start(request);
  sessionId = started.sessionId;
  sessionIds.push(sessionId);
  return { ...started, harness };
}

function eventsOf(core: CoreHarness, sessionId: string): CoreEvent[] {
  return core.store.listEvents(sessionId) as CoreEvent[];
}

describe('the session sandbox is started with the turn', { timeout: 120_000 }, () => {
  it('the first python call uses the container and interpreter the warm-up started, with no note', async () => {
    let warmPids: string[] = [];
    let firstResult = '';
    const { sessionId, done } = await startTurn(
      async (request, session) => {
        if (request.index === 0) {
          // the model "thinks" until both interpreters run in the session's container
          await waitFor(async () => (await driverPids(session)).length === 2, 60_000, 'the warm-up', 100);
          warmPids = await driverPids(session);
          return { toolCalls: [{ name: 'python_execute', arguments: { code: 'print(6 * 7)' } }] };
        }
        firstResult = toolTexts(request)[0] ?? '';
        return finish;
      },
      // no quota watch: its measuring processes would come and go beside the drivers
      { settings: { sandbox: { workspaceQuotaMb: 0 } } },
    );
    expect((await done).status).toBe('finished');
    expect(firstResult).toContain('42');
    expect(firstResult).not.toMatch(/sandbox|interpreter|Reconnected/i);
    expect(await containersOf(sessionId)).toHaveLength(1);
    // the call started no interpreter of its own: the same two processes run
    expect(await driverPids(sessionId)).toEqual(warmPids);
  });

  it('a turn that never runs code leaves no container behind', async () => {
    const { sessionId, done } = await startTurn(async (request, session) => {
      await waitFor(
        async () => (await containersOf(session)).some((info) => info.State === 'running'),
        60_000,
        'the warm-up to start a container',
        100,
      );
      return finish;
    });
    expect((await done).status).toBe('finished');
    await waitFor(async () => (await containersOf(sessionId)).length === 0, 30_000, 'the unused container to go', 100);
  });

  it('in a long-lived process, which keeps used sandboxes warm, an unused one is not kept', async () => {
    let sessionId = '';
    const llm = await startFakeLlm(async () => {
      await waitFor(async () => (await containersOf(sessionId)).length > 0, 60_000, 'the warm-up', 100);
      return finish;
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'manus-warm-up-core-'));
    const store = openStore(dataDir);
    const core = createAppCore({
      dataDir,
      store,
      secrets: FileKeySecretBox.inDataDir(dataDir),
      humanAvailable: false,
      llmOverrides: { baseUrl: llm.baseUrl, model: 'test-model', apiKey: 'sk-test' },
    });
    try {
      const started = core.service.start({ task: 'answer without code' });
      sessionId = started.sessionId;
      sessionIds.push(sessionId);
      expect((await started.done).status).toBe('finished');
      // the turn's end parks the session's sandbox as idle; with nothing used, its container goes all the same
      await waitFor(
        async () => (await containersOf(sessionId)).length === 0,
        30_000,
        'the unused container to go',
        100,
      );
    } finally {
      await core.close();
      store.close();
      await llm.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('cancelling while the warm-up is under way leaves no container behind', async () => {
    const { sessionId, harness: core } = await startTurn(() => ({ fault: 'hang' }));
    await waitFor(
      async () => (await containersOf(sessionId)).length > 0,
      60_000,
      'the warm-up to make a container',
      20,
    );
    await core.service.cancel(sessionId);
    // cancel waits about a second for the run; on a busy machine it may settle just after
    await waitFor(() => core.store.getSession(sessionId)?.status === 'cancelled', 10_000, 'the turn to settle');
    await waitFor(async () => (await containersOf(sessionId)).length === 0, 30_000, 'the unused container to go', 100);
  });

  it('with no engine reachable a turn without code runs quietly, and the first call reports it as before', async () => {
    const {
      sessionId,
      done,
      harness: core,
    } = await startTurn(async () => finish, {
      settings: { sandbox: { engine: 'unix:///nonexistent/docker.sock' } },
    });
    expect((await done).status).toBe('finished');
    const quiet = eventsOf(core, sessionId);
    expect(quiet.filter((event) => event.type === 'error' || event.type === 'notice')).toEqual([]);

    core.llm.setScript(({ index }) =>
      index === 1 ? { toolCalls: [{ name: 'python_execute', arguments: { code: 'print(1)' } }] } : finish,
    );
    expect((await core.service.start({ task: 'now run code', sessionId }).done).status).toBe('finished');
    const failed = eventsOf(core, sessionId).find(
      (event) => event.type === 'tool' && event.name === 'python_execute' && event.status !== 'calling',
    );
    expect(failed && failed.type === 'tool' && failed.error).toMatch(/Docker engine is not reachable/);
  });

  it('in local mode nothing is started and the host warning waits for the first code', async () => {
    const {
      sessionId,
      done,
      harness: core,
    } = await startTurn(async () => finish, {
      settings: { sandbox: { mode: 'local' } },
    });
    expect((await done).status).toBe('finished');
    expect(eventsOf(core, sessionId).filter((event) => event.type === 'notice')).toEqual([]);
  });
});

describe('the browser is started with a turn whose agent works through it alone', { timeout: 120_000 }, () => {
  it('a browsing flow starts Chromium with the turn and closes it when the turn ends without using it', async () => {
    const { sessionId, harness: core } = await startTurn(
      () => ({ fault: 'hang' }),
      { settings: { browser: { executablePath: CHROMIUM } } },
      { task: 'browse something', mode: 'planning', agents: ['browser'] },
    );
    await waitFor(() => sharedBrowserCount() === 1, 60_000, 'the warm-up to start Chromium', 50);
    // a browsing flow's agent has no sandbox tool: no container is started for it
    expect(await containersOf(sessionId)).toHaveLength(0);
    await core.service.cancel(sessionId);
    await waitFor(() => sharedBrowserCount() === 0, 30_000, 'the unused browser to close', 50);
  });
});
