import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreApi } from '../../src/main/api/core-api.js';
import { currentProcess } from '../../src/main/process/owner-process.js';
import type { CoreEvent } from '../../src/shared/events.js';
import type { Script } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { DEFAULT_EVENT_WINDOW } from '../../src/shared/contract/event-window-size.js';
import { coreApiOver, invokeOk } from '../support/core-api-harness.js';

const finish = (text: string) => ({ text, toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] });

let harness: CoreHarness | undefined;
let api: CoreApi | undefined;
afterEach(async () => {
  await api?.close();
  await harness?.close();
  harness = undefined;
  api = undefined;
});

async function coreApi(script: Script): Promise<CoreApi> {
  harness = await startCoreHarness(script);
  api = coreApiOver(harness);
  return api;
}

function ok<T>(name: string, payload: unknown): Promise<T> {
  return invokeOk<T>(api!, name, payload);
}

function settled(sessionId: string): Promise<CoreEvent> {
  return new Promise((resolve) => {
    const stop = api!.onEvent((event) => {
      if (event.sessionId === sessionId && event.type === 'done') {
        stop();
        resolve(event);
      }
    });
  });
}

function sentText(index: number): string {
  return JSON.stringify(harness!.llm.chatRequests[index]!.body.messages);
}

describe('the way back, through the contract', () => {
  it('retryTurn sends the last message again, with its attachments, in the mode it was sent in', async () => {
    let failing = true;
    await coreApi((request) => {
      if (request.index === 0) return finish('First turn done.');
      return failing
        ? { fault: 'status', status: 401, message: 'Incorrect API key provided' }
        : finish('Retried fine.');
    });
    const { sessionId } = await ok<{ sessionId: string }>('startTask', { task: 'Start here' });
    await settled(sessionId);

    const table = Buffer.from('a,b\n1,2\n');
    const { uploadId } = await ok<{ uploadId: string }>('beginUpload', { name: 'table.csv', size: table.length });
    await ok('appendUpload', { uploadId, offset: 0, data: table.toString('base64') });
    const failed = settled(sessionId);
    await ok('startTask', { sessionId, task: 'Chart the attached table', mode: 'planning', uploads: [uploadId] });
    expect(await failed).toMatchObject({ status: 'failed' });

    failing = false;
    const before = harness!.llm.chatRequests.length;
    const lastSeqBefore = harness!.store.listEvents(sessionId).at(-1)!.seq;
    const retried = settled(sessionId);
    expect(await ok('retryTurn', { sessionId })).toEqual({ sessionId });
    expect(await retried).toMatchObject({ status: 'finished' });
    expect(sentText(before)).toContain('Chart the attached table');
    expect(sentText(before)).toContain('/workspace/uploads/table.csv');
    // the planning flow ran the retried turn: it made a plan
    expect(harness!.store.getSession(sessionId)!.mode).toBe('planning');
    const retriedEvents = harness!.store.listEvents(sessionId).filter((event) => event.seq > lastSeqBefore);
    expect(retriedEvents.some((event) => event.type === 'plan')).toBe(true);
    const users = harness!.store
      .listEvents(sessionId)
      .filter((event) => event.type === 'message' && event.role === 'user');
    // the retried bubble is the first one again: the text, and the file as a chip (not the note the model reads)
    expect(users.at(-1)).toMatchObject({ text: 'Chart the attached table', attachments: ['uploads/table.csv'] });
    expect(users.map((event) => event.type === 'message' && event.text.split('\n')[0])).toEqual([
      'Start here',
      'Chart the attached table',
      'Chart the attached table',
    ]);
  });

  it('retryTurn finds the last message behind more events than one window holds', async () => {
    let failing = true;
    await coreApi(() =>
      failing ? { fault: 'status', status: 401, message: 'Incorrect API key provided' } : finish('Retried fine.'),
    );
    const { sessionId } = await ok<{ sessionId: string }>('startTask', { task: 'Summarise the long log' });
    expect(await settled(sessionId)).toMatchObject({ status: 'failed' });
    // a long tail of other events after the person's message (tool output, notices...)
    for (let index = 0; index < DEFAULT_EVENT_WINDOW * 2 + 10; index += 1) {
      harness!.store.appendEvent({
        type: 'notice',
        sessionId,
        level: 'info',
        code: 'resumed',
        text: `line ${index}`,
        ts: Date.now(),
      });
    }
    failing = false;
    const before = harness!.llm.chatRequests.length;
    const retried = settled(sessionId);
    await ok('retryTurn', { sessionId });
    expect(await retried).toMatchObject({ status: 'finished' });
    expect(sentText(before)).toContain('Summarise the long log');
  });

  it('a model error carries its code, its parameters and the provider the turn ran on', async () => {
    await coreApi(() => ({ fault: 'status', status: 401, message: 'Incorrect API key provided' }));
    const { sessionId } = await ok<{ sessionId: string }>('startTask', { task: 'Anything' });
    await settled(sessionId);
    const error = harness!.store.listEvents(sessionId).find((event) => event.type === 'error');
    // for the UI to translate, and to open that provider's settings; the English stays for the CLI
    expect(error).toMatchObject({ code: 'unauthorized', params: { status: 401, provider: 'test', attempts: 1 } });
    expect(error).toMatchObject({ message: expect.stringContaining('API key refused (HTTP 401)') });
  });

  it('retryTurn refuses a session that is running', async () => {
    await coreApi(() => ({ fault: 'hang' }));
    const { sessionId } = await ok<{ sessionId: string }>('startTask', { task: 'Wait' });
    expect(await api!.invoke('retryTurn', { sessionId })).toMatchObject({ ok: false, error: { code: 'busy' } });
    await ok('cancel', { sessionId });
  });

  it('a session stored as running whose process died is interrupted when it is listed or opened; a live one is not', async () => {
    await coreApi(() => finish('unused'));
    const create = (title: string) =>
      harness!.store.createSession({
        id: title,
        title,
        mode: 'agent',
        model: 'test-model',
        workspace: join(harness!.dataDir, title),
        status: 'running',
      });
    // another process's run whose process is gone (it exited), and one whose process lives (this test's)
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    const deadPid = Number(gone.stdout.toString());
    create('dead-run');
    create('live-run');
    mkdirSync(join(harness!.dataDir, 'run'), { recursive: true });
    const { host } = currentProcess();
    writeFileSync(join(harness!.dataDir, 'run', 'dead-run.pid'), JSON.stringify({ pid: deadPid, host }));
    writeFileSync(join(harness!.dataDir, 'run', 'live-run.pid'), JSON.stringify({ pid: process.ppid, host }));

    const listed = await ok<Array<{ session: { id: string; status: string } }>>('listSessions', {});
    const statusOf = (id: string) => listed.find((row) => row.session.id === id)?.session.status;
    expect(statusOf('dead-run')).toBe('interrupted');
    expect(statusOf('live-run')).toBe('running');
    // the history says so too: a page replaying the events shows it interrupted
    const window = await ok<CoreEvent[]>('getEventWindow', { sessionId: 'dead-run', limit: 50 });
    expect(window.at(-1)).toMatchObject({ type: 'session', action: 'status', session: { status: 'interrupted' } });
    const outline = await ok<{ session: { status: string } }>('getSessionOutline', { sessionId: 'live-run' });
    expect(outline.session.status).toBe('running');
  });
});
