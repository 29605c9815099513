import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreApi } from '../../src/main/api/core-api.js';
import { storedSettings } from '../../src/main/api/settings-access.js';
import { FileKeySecretBox } from '../../src/main/store/secrets.js';
import { isAppUrl, isExternalWebUrl } from '../../src/main/electron/app-url.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { coreApiOver, invokeOk } from '../support/core-api-harness.js';

const finish = (text: string) => ({ text, toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] });
const API_KEY = 'sk-live-0123456789abcdef';

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function coreApi(): Promise<CoreApi> {
  harness = await startCoreHarness(sequence(finish('Report written.')));
  return coreApiOver(harness);
}

const ok = invokeOk;

async function finishedSession(api: CoreApi, task: string): Promise<string> {
  const { sessionId } = await ok<{ sessionId: string }>(api, 'startTask', { task });
  await new Promise<void>((resolve) => {
    const stop = api.onEvent((event) => {
      if (event.sessionId === sessionId && event.type === 'done') {
        stop();
        resolve();
      }
    });
  });
  return sessionId;
}

describe('core API handlers', () => {
  it('shows settings with secrets masked and keeps the stored key when the mask comes back', async () => {
    const api = await coreApi();
    const saved = await ok<{ llms: Record<string, { apiKey?: string }> }>(api, 'updateSettings', {
      settings: { llms: { main: { model: 'gpt-4o', apiKey: API_KEY } }, defaultLlm: 'main' },
    });
    expect(saved.llms.main.apiKey).toBe('••••cdef');
    expect(JSON.stringify(harness!.store.getSetting('settings'))).not.toContain(API_KEY);

    const shown = await ok<{ llms: Record<string, { apiKey?: string; model: string }> }>(api, 'getSettings', {});
    shown.llms.main.model = 'gpt-4.1';
    await ok(api, 'updateSettings', { settings: shown });
    const stored = storedSettings(harness!.store, FileKeySecretBox.inDataDir(harness!.dataDir)).read();
    expect(stored.llms.main).toMatchObject({ model: 'gpt-4.1', apiKey: API_KEY });

    const info = await ok<{ models: { name: string; model: string }[]; defaultModel: string }>(api, 'appInfo', {});
    expect(info.models).toEqual([{ name: 'main', model: 'gpt-4.1', vision: true }]);
    expect(info.defaultModel).toBe('main');
  });

  it('refuses invalid settings whole, with the reason', async () => {
    const api = await coreApi();
    const result = await api.invoke('updateSettings', { settings: { agent: { maxSteps: -1 } } });
    expect(result).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('renames, lists, searches, exports and deletes a session', async () => {
    const api = await coreApi();
    const sessionId = await finishedSession(api, 'Write the quarterly report');
    const renamed = await ok<{ title: string }>(api, 'renameSession', { sessionId, title: 'Q3 report' });
    expect(renamed.title).toBe('Q3 report');
    const listed = await ok<{ session: { id: string; title: string }; running: boolean }[]>(api, 'listSessions', {});
    expect(listed).toEqual([
      expect.objectContaining({
        running: false,
        session: expect.objectContaining({ id: sessionId, title: 'Q3 report' }),
      }),
    ]);
    const hits = await ok<{ session: { id: string } }[]>(api, 'searchSessions', { query: 'quarterly' });
    expect(hits.map((hit) => hit.session.id)).toEqual([sessionId]);

    const markdown = await ok<{ filename: string; content: string }>(api, 'exportSession', { sessionId, format: 'md' });
    expect(markdown.filename).toBe('q3-report.md');
    expect(markdown.content).toContain('Report written.');
    const json = await ok<{ mimeType: string; content: string }>(api, 'exportSession', { sessionId, format: 'json' });
    expect(json.mimeType).toBe('application/json');
    expect(JSON.parse(json.content).session.id).toBe(sessionId);

    const workspace = harness!.store.getSession(sessionId)!.workspace;
    expect(existsSync(workspace)).toBe(true);
    await ok(api, 'deleteSession', { sessionId });
    expect(await ok(api, 'getSession', { sessionId })).toBeNull();
    expect(existsSync(workspace)).toBe(false);
    expect(await api.invoke('renameSession', { sessionId, title: 'gone' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('says when an answer has nothing waiting for it', async () => {
    const api = await coreApi();
    const sessionId = await finishedSession(api, 'Say hi');
    expect(await api.invoke('answer', { sessionId, askId: 'nope', answer: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'not_waiting' },
    });
  });
});

describe('desktop shell navigation rules', () => {
  it('knows its own page and lets only web links out', () => {
    const app = 'file:///opt/manus/resources/app/out/renderer/index.html';
    expect(isAppUrl('file:///opt/manus/resources/app/out/renderer/index.html#/s/1', app)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', app)).toBe(false);
    expect(isAppUrl('http://localhost:5173/', 'http://localhost:5173/')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
    expect(isExternalWebUrl('https://example.org/a')).toBe(true);
    expect(isExternalWebUrl('javascript:alert(1)')).toBe(false);
    expect(isExternalWebUrl('file:///etc/passwd')).toBe(false);
    expect(isExternalWebUrl('ms-settings:privacy')).toBe(false);
  });
});
