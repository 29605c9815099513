import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeBrowserPrivateFolder } from '../../src/main/browser/browser-private-folder.js';
import { currentProcess, processStartTime } from '../../src/main/process/owner-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'manus-browser-folder-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A private folder as a process left it, with some bytes of a download in it. */
function leftFolder(name: string, owner: object | undefined): string {
  const folder = join(dataDir, 'browser', name);
  mkdirSync(join(folder, 'artifacts'), { recursive: true });
  writeFileSync(join(folder, 'artifacts', 'download'), Buffer.alloc(1024));
  if (owner) writeFileSync(join(folder, 'owner.json'), JSON.stringify(owner));
  return folder;
}

/** A process that has exited: its pid names nobody (or someone started later). */
async function deadProcess(): Promise<object> {
  const child = spawn('sleep', ['30'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  const owner = { ...currentProcess(), pid: child.pid!, started: processStartTime(child.pid!) };
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  return owner;
}

describe.runIf(process.platform === 'linux')("a session browser's private folder", () => {
  it('is owner-only, and removes what it holds when asked', async () => {
    const made = await makeBrowserPrivateFolder(dataDir);
    const folder = join(made.artifactsDir, '..');
    expect(statSync(join(dataDir, 'browser')).mode & 0o777).toBe(0o700);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(made.artifactsDir).mode & 0o777).toBe(0o700);
    writeFileSync(join(made.artifactsDir, 'download'), 'bytes');
    await made.remove();
    expect(existsSync(folder)).toBe(false);
  });

  it("sweeps folders whose process died before removing them, and leaves a live process's and an unowned one", async () => {
    const abandoned = leftFolder('session-abandoned', await deadProcess());
    const live = leftFolder('session-live', currentProcess());
    const unowned = leftFolder('session-unowned', undefined);
    const made = await makeBrowserPrivateFolder(dataDir);
    expect(existsSync(abandoned)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(unowned)).toBe(true);
    expect(readdirSync(join(dataDir, 'browser'))).toHaveLength(3);
    await made.remove();
  });
});
