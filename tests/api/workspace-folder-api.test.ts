import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreApi } from '../../src/main/api/core-api.js';
import { MAX_RECENT_WORKSPACES } from '../../src/main/store/recent-workspaces.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { coreApiOver } from '../support/core-api-harness.js';

const finish = (text: string) => ({ text, toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] });

let harness: CoreHarness | undefined;
let api: CoreApi | undefined;
let folders: string;
afterEach(async () => {
  await api?.close();
  await harness?.close();
  rmSync(folders, { recursive: true, force: true });
  harness = undefined;
  api = undefined;
});

async function coreApi(pickFolder?: () => Promise<string | undefined>): Promise<CoreApi> {
  folders = mkdtempSync(join(tmpdir(), 'manus-chosen-'));
  harness = await startCoreHarness(sequence(finish('Done.'), finish('Done.'), finish('Done.')));
  api = coreApiOver(harness, { pickFolder, shell: pickFolder ? 'electron' : 'web' });
  return api;
}

async function refusal(name: string, payload: unknown): Promise<string | undefined> {
  const result = await api!.invoke(name, payload);
  return result.ok ? undefined : result.error.code;
}

describe('choosing a folder for a new session', () => {
  it('refuses a relative, missing, file, unwritable or data-folder path with a code saying why', async () => {
    await coreApi();
    const file = join(folders, 'notes.txt');
    writeFileSync(file, 'x');
    const locked = join(folders, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o500);
    expect(await refusal('checkWorkspaceFolder', { path: 'projects/mine' })).toBe('not_absolute');
    expect(await refusal('checkWorkspaceFolder', { path: join(folders, 'missing') })).toBe('not_found');
    expect(await refusal('checkWorkspaceFolder', { path: file })).toBe('not_a_folder');
    // root reads and writes anything: the write check only shows for an ordinary user
    if (process.getuid?.() !== 0) expect(await refusal('checkWorkspaceFolder', { path: locked })).toBe('not_writable');
    expect(await refusal('checkWorkspaceFolder', { path: harness!.dataDir })).toBe('inside_data_folder');
    mkdirSync(join(harness!.dataDir, 'inner'));
    expect(await refusal('checkWorkspaceFolder', { path: join(harness!.dataDir, 'inner') })).toBe('inside_data_folder');
    expect(await refusal('startTask', { task: 'Work there', workspace: file })).toBe('not_a_folder');
    expect(harness!.store.listSessions()).toEqual([]);
  });

  it('starts the session in a good folder, remembers it first among the recent ones, and forgets folders gone', async () => {
    await coreApi();
    const chosen = join(folders, 'project');
    mkdirSync(chosen);
    const checked = await api!.invoke('checkWorkspaceFolder', { path: `${chosen}/` });
    expect(checked).toEqual({ ok: true, value: { path: realpathSync(chosen) } });
    const started = await api!.invoke('startTask', { task: 'Work there', workspace: chosen });
    if (!started.ok) throw new Error(started.error.message);
    const { sessionId } = started.value as { sessionId: string };
    expect(harness!.store.getSession(sessionId)!.workspace).toBe(realpathSync(chosen));

    const others = Array.from({ length: MAX_RECENT_WORKSPACES + 1 }, (_, index) => join(folders, `other-${index}`));
    for (const other of others) mkdirSync(other);
    for (const other of others) await api!.invoke('startTask', { task: 'More', workspace: other });
    rmSync(others.at(-2)!, { recursive: true });
    const recent = await api!.invoke('recentWorkspaces', {});
    expect(recent).toEqual({
      ok: true,
      value: {
        folders: [
          realpathSync(others.at(-1)!),
          ...others
            .slice(1, -2)
            .reverse()
            .map((path) => realpathSync(path)),
        ],
      },
    });
  });

  it('opens the desktop dialog and checks its choice like a typed path; web mode has no dialog', async () => {
    const picked = mkdtempSync(join(tmpdir(), 'manus-picked-'));
    let answer: string | undefined = picked;
    await coreApi(async () => answer);
    expect(await api!.invoke('pickWorkspaceFolder', {})).toEqual({ ok: true, value: { path: realpathSync(picked) } });
    answer = undefined;
    expect(await api!.invoke('pickWorkspaceFolder', {})).toEqual({ ok: true, value: { path: null } });
    answer = harness!.dataDir;
    expect(await refusal('pickWorkspaceFolder', {})).toBe('inside_data_folder');
    rmSync(picked, { recursive: true, force: true });
    await api!.close();
    await harness!.close();
    await coreApi();
    expect(await refusal('pickWorkspaceFolder', {})).toBe('not_supported');
  });
});
