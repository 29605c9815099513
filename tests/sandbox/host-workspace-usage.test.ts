import { chmodSync, linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hostWorkspaceUsage } from '../../src/main/sandbox/host-workspace-usage.js';

const MIB = 1024 * 1024;
const folders: string[] = [];

function folder(): string {
  const made = mkdtempSync(join(tmpdir(), 'manus-usage-'));
  folders.push(made);
  return made;
}

afterEach(() => {
  for (const made of folders.splice(0)) rmSync(made, { recursive: true, force: true });
});

describe('hostWorkspaceUsage (the quota walk the app makes of a bind-mounted workspace)', () => {
  it('counts blocks, hard links once, and never follows a link out of the folder', async () => {
    const workspace = folder();
    const empty = await hostWorkspaceUsage(workspace);
    writeFileSync(join(workspace, 'one-mib'), Buffer.alloc(MIB, 1));
    const withFile = await hostWorkspaceUsage(workspace);
    expect(withFile - empty).toBeGreaterThanOrEqual(MIB);

    linkSync(join(workspace, 'one-mib'), join(workspace, 'same-file'));
    expect(await hostWorkspaceUsage(workspace)).toBe(withFile);

    const outside = folder();
    writeFileSync(join(outside, 'big'), Buffer.alloc(4 * MIB, 1));
    symlinkSync(outside, join(workspace, 'out'));
    expect((await hostWorkspaceUsage(workspace)) - withFile).toBeLessThan(MIB);
  });

  it('counts a sparse file by its blocks (what it takes on this disk), and what a folder it cannot list holds', async () => {
    const workspace = folder();
    const sparse = join(workspace, 'sparse.bin');
    writeFileSync(sparse, '');
    truncateSync(sparse, 100 * MIB);
    expect(await hostWorkspaceUsage(workspace)).toBeLessThan(MIB);

    mkdirSync(join(workspace, 'hide'));
    writeFileSync(join(workspace, 'hide', 'inside'), Buffer.alloc(2 * MIB, 1));
    chmodSync(join(workspace, 'hide'), 0o300);
    expect(await hostWorkspaceUsage(workspace)).toBeGreaterThanOrEqual(2 * MIB);
  });
});
