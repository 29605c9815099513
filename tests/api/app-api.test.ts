import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createCoreApi, type CoreApi } from '../../src/main/api/core-api.js';
import { storedSettings } from '../../src/main/api/settings-access.js';
import { FileKeySecretBox } from '../../src/main/store/secrets.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';

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
  api = createCoreApi({
    openPath,
    sessions: harness.service,
    store: harness.store,
    dataDir: harness.dataDir,
    shell: 'web',
    version: 'test',
    settings: storedSettings(harness.store, FileKeySecretBox.inDataDir(harness.dataDir)),
  });
  return api;
}

async function ok<T>(name: string, payload: unknown): Promise<T> {
  const result = await api!.invoke(name, payload);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.message}`);
  return result.value as T;
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
      attachments: [{ name: 'table.csv', data: Buffer.from('a,b\n1,2\n').toString('base64') }],
    });
    await done(sessionId);
    const session = harness!.store.getSession(sessionId)!;
    expect(readFileSync(join(session.workspace, 'uploads', 'table.csv'), 'utf8')).toBe('a,b\n1,2\n');
    const prompt = JSON.stringify(harness!.llm.chatRequests[0]!.body);
    expect(prompt).toContain('/workspace/uploads/table.csv');

    // the workspace panel lists and reads it, confined to the workspace
    const listing = await ok<{ files: { path: string; kind: string }[] }>('listWorkspace', { sessionId });
    expect(listing.files).toEqual([expect.objectContaining({ path: 'uploads/table.csv', kind: 'csv' })]);
    const file = await ok<{ content: string }>('readWorkspaceFile', { sessionId, path: 'uploads/table.csv' });
    expect(file.content).toBe('a,b\n1,2\n');
    const escape = await api!.invoke('readWorkspaceFile', { sessionId, path: '../../settings.json' });
    expect(escape).toMatchObject({ ok: false, error: { code: 'outside_workspace' } });

    // a follow-up's files go to the same workspace
    await ok('uploadFiles', { sessionId, files: [{ name: 'more.txt', data: Buffer.from('more').toString('base64') }] });
    expect(existsSync(join(session.workspace, 'uploads', 'more.txt'))).toBe(true);
  });

  it('opens workspace files with the system in the desktop app only, confined to the workspace', async () => {
    const opened: string[] = [];
    await coreApi(async (path) => void opened.push(path));
    const { sessionId } = await ok<{ sessionId: string }>('startTask', {
      task: 'Keep this',
      attachments: [{ name: 'keep.txt', data: Buffer.from('kept').toString('base64') }],
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
