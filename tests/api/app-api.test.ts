import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreApi } from '../../src/main/api/core-api.js';
import { storedSettings } from '../../src/main/api/settings-access.js';
import { FileKeySecretBox } from '../../src/main/store/secrets.js';
import { sequence } from '../support/fake-llm/index.js';
import { UPLOAD_CHUNK_BYTES } from '../../src/shared/contract.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { coreApiOver, invokeOk } from '../support/core-api-harness.js';

const finish = (text: string) => ({ text, toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] });
const KEY = 'sk-live-abcdefghijklmnop';

let harness: CoreHarness | undefined;
let api: CoreApi | undefined;
afterEach(async () => {
  await api?.close();
  await harness?.close();
  harness = undefined;
  api = undefined;
});

async function coreApi(openPath?: (path: string) => Promise<void>): Promise<CoreApi> {
  harness = await startCoreHarness(sequence(finish('Read it.'), finish('Again.')));
  api = coreApiOver(harness, { openPath });
  return api;
}

function ok<T>(name: string, payload: unknown): Promise<T> {
  return invokeOk<T>(api!, name, payload);
}

/** A file uploaded as the renderer does it: announced, then sent a chunk at a time; returns its upload id. */
async function uploaded(name: string, content: string | Buffer): Promise<string> {
  const bytes = Buffer.from(content);
  const { uploadId } = await ok<{ uploadId: string }>('beginUpload', { name, size: bytes.length });
  for (let offset = 0; offset < bytes.length; offset += UPLOAD_CHUNK_BYTES) {
    const data = bytes.subarray(offset, offset + UPLOAD_CHUNK_BYTES).toString('base64');
    await ok('appendUpload', { uploadId, offset, data });
  }
  return uploadId;
}

function done(sessionId: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = api!.onEvent((event) => {
      if (event.sessionId === sessionId && event.type === 'done') {
        stop();
        resolve();
      }
    });
  });
}

describe('issue 8 requests', () => {
  it('tests a provider with the stored key when the form sends the mask back', async () => {
    await coreApi();
    await ok('updateSettings', {
      settings: { llms: { main: { provider: 'compatible', model: 'm', baseUrl: harness!.llm.baseUrl, apiKey: KEY } } },
    });
    const report = await ok<{ ok: boolean; models?: string[] }>('testLlm', {
      name: 'main',
      config: { provider: 'compatible', model: 'm', baseUrl: harness!.llm.baseUrl, apiKey: '••••mnop' },
    });
    expect(report.ok).toBe(true);
    expect(report.models?.length).toBeGreaterThan(0);
    const models = harness!.llm.requests.filter((request) => request.path.endsWith('/models')).at(-1)!;
    expect(models.headers.authorization).toBe(`Bearer ${KEY}`);

    const down = await ok<{ ok: boolean; error?: string }>('testLlm', {
      config: { provider: 'compatible', model: 'm', baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'x', maxAttempts: 1 },
    });
    expect(down.ok).toBe(false);
    expect(down.error).toBeTruthy();
  });

  it('imports an mcpServers file with its secrets masked, and refuses a bad one whole', async () => {
    await coreApi();
    const imported = await ok<{ servers: Record<string, { type: string; env?: Record<string, string> }> }>(
      'importMcpConfig',
      {
        text: JSON.stringify({
          mcpServers: { files: { command: 'npx', args: ['-y', 'server'], env: { API_TOKEN: 'tok-1234567890abcd' } } },
        }),
      },
    );
    expect(imported.servers.files).toMatchObject({ type: 'stdio', env: { API_TOKEN: '••••abcd' } });
    // saved with the real secret; the settings screen sees it masked
    const stored = storedSettings(harness!.store, FileKeySecretBox.inDataDir(harness!.dataDir)).read();
    expect(stored.mcp.servers.files).toMatchObject({ env: { API_TOKEN: 'tok-1234567890abcd' } });
    const shown = await ok<{ mcp: { servers: Record<string, { env: Record<string, string> }> } }>('getSettings', {});
    expect(shown.mcp.servers.files!.env.API_TOKEN).toBe('••••abcd');
    const bad = await api!.invoke('importMcpConfig', { text: '{"mcpServers": {"x": {"url": 5}}}' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_config' } });
  });

  it('copies attachments into a new session workspace before its run and adds their paths to the task', async () => {
    await coreApi();
    const { sessionId } = await ok<{ sessionId: string }>('startTask', {
      task: 'Summarise the table',
      uploads: [await uploaded('table.csv', 'a,b\n1,2\n')],
    });
    await done(sessionId);
    const session = harness!.store.getSession(sessionId)!;
    expect(readFileSync(join(session.workspace, 'uploads', 'table.csv'), 'utf8')).toBe('a,b\n1,2\n');
    const prompt = JSON.stringify(harness!.llm.chatRequests[0]!.body);
    expect(prompt).toContain('Attached files (copied into the workspace): /workspace/uploads/table.csv');
    // the person's message shows what they wrote and the file, not the note for the model
    const userMessage = harness!.store
      .listEvents(sessionId)
      .find((event) => event.type === 'message' && event.role === 'user');
    expect(userMessage).toMatchObject({ text: 'Summarise the table', attachments: ['uploads/table.csv'] });

    // the workspace panel lists and reads it, confined to the workspace
    const listing = await ok<{ files: { path: string; kind: string }[] }>('listWorkspace', { sessionId });
    expect(listing.files).toEqual([expect.objectContaining({ path: 'uploads/table.csv', kind: 'csv' })]);
    const file = await ok<{ content: string }>('readWorkspaceFile', { sessionId, path: 'uploads/table.csv' });
    expect(file.content).toBe('a,b\n1,2\n');
    const escape = await api!.invoke('readWorkspaceFile', { sessionId, path: '../../settings.json' });
    expect(escape).toMatchObject({ ok: false, error: { code: 'outside_workspace' } });

    // a follow-up's files go to the same workspace
    await ok('uploadFiles', { sessionId, uploads: [await uploaded('more.txt', 'more')] });
    expect(existsSync(join(session.workspace, 'uploads', 'more.txt'))).toBe(true);
  });

  it('takes uploads a chunk at a time up to the uploads.maxFileMb setting, and refuses the rest without losing anything', async () => {
    await coreApi();
    const info = await ok<{ uploadLimitBytes: number }>('appInfo', {});
    expect(info.uploadLimitBytes).toBe(100 * 1024 * 1024);
    const over = await api!.invoke('beginUpload', { name: 'huge.bin', size: info.uploadLimitBytes + 1 });
    expect(over).toMatchObject({ ok: false, error: { code: 'too_large', message: expect.stringContaining('100 MB') } });
    await ok('updateSettings', { settings: { uploads: { maxFileMb: 1 } } });
    expect((await ok<{ uploadLimitBytes: number }>('appInfo', {})).uploadLimitBytes).toBe(1024 * 1024);
    const tooBig = await api!.invoke('beginUpload', { name: 'two.bin', size: 2 * 1024 * 1024 });
    expect(tooBig).toMatchObject({ ok: false, error: { code: 'too_large' } });

    // a chunk out of order or past the announced size is refused; the upload goes on from where it was
    const { uploadId } = await ok<{ uploadId: string }>('beginUpload', { name: 'half.txt', size: 4 });
    expect(await api!.invoke('appendUpload', { uploadId, offset: 2, data: 'YWI=' })).toMatchObject({
      ok: false,
      error: { code: 'out_of_order' },
    });
    expect(await ok<{ received: number }>('appendUpload', { uploadId, offset: 0, data: 'YWI=' })).toEqual({
      received: 2,
    });
    expect(await api!.invoke('appendUpload', { uploadId, offset: 2, data: 'Y2RlZg==' })).toMatchObject({
      ok: false,
      error: { code: 'too_large' },
    });
    // a message naming an unfinished upload is not sent: no session, the upload still there to finish
    const before = harness!.store.listSessions({}).length;
    expect(await api!.invoke('startTask', { task: 'Use it', uploads: [uploadId] })).toMatchObject({
      ok: false,
      error: { code: 'incomplete' },
    });
    expect(harness!.store.listSessions({})).toHaveLength(before);
    await ok('appendUpload', { uploadId, offset: 2, data: 'Y2Q=' });
    const { sessionId } = await ok<{ sessionId: string }>('startTask', { task: 'Use it', uploads: [uploadId] });
    await done(sessionId);
    const workspace = harness!.store.getSession(sessionId)!.workspace;
    expect(readFileSync(join(workspace, 'uploads', 'half.txt'), 'utf8')).toBe('abcd');
    // sent once: the same id again is unknown, and the staged bytes are gone
    expect(await api!.invoke('startTask', { task: 'Again', uploads: [uploadId] })).toMatchObject({
      ok: false,
      error: { code: 'unknown_upload' },
    });
    expect(
      readdirSync(join(harness!.dataDir, 'upload-staging')).flatMap((folder) =>
        readdirSync(join(harness!.dataDir, 'upload-staging', folder)),
      ),
    ).toEqual([]);
  });

  it('opens workspace files with the system in the desktop app only, confined to the workspace', async () => {
    const opened: string[] = [];
    await coreApi(async (path) => void opened.push(path));
    const { sessionId } = await ok<{ sessionId: string }>('startTask', {
      task: 'Keep this',
      uploads: [await uploaded('keep.txt', 'kept')],
    });
    await done(sessionId);
    await ok('openWorkspaceFile', { sessionId, path: 'uploads/keep.txt' });
    await ok('openWorkspaceFile', { sessionId, path: '.' });
    const workspace = realpathSync(harness!.store.getSession(sessionId)!.workspace);
    expect(opened).toEqual([join(workspace, 'uploads', 'keep.txt'), workspace]);
    expect(await api!.invoke('openWorkspaceFile', { sessionId, path: '../..' })).toMatchObject({
      ok: false,
      error: { code: 'outside_workspace' },
    });
  });

  it('says opening files needs the desktop app in web mode', async () => {
    await coreApi();
    const { sessionId } = await ok<{ sessionId: string }>('startTask', { task: 'Hi' });
    await done(sessionId);
    expect(await api!.invoke('openWorkspaceFile', { sessionId, path: '.' })).toMatchObject({
      ok: false,
      error: { code: 'not_supported' },
    });
  });

  it('reports the sandbox engine and image', async () => {
    await coreApi();
    const state = await ok<{ engine: { reachable: boolean }; image: { name: string }; build: { state: string } }>(
      'sandboxStatus',
      {},
    );
    expect(typeof state.engine.reachable).toBe('boolean');
    expect(state.image.name).toBe('manus-sandbox:latest');
    expect(state.build.state).toBe('idle');
  });
});
