import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { currentProcess, isOwnerAlive, processStartTime } from '../../src/main/process/owner-process.js';

const folder = mkdtempSync(join(tmpdir(), 'manus-owner-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe.runIf(process.platform === 'linux')('the owner process of a container or a run', () => {
  it('reads the start time of a process whose name holds ") " and spaces, and tells when its pid names someone else', async () => {
    // a program named to fool a parser that splits /proc/<pid>/stat at the first ')' or on spaces
    const program = join(folder, 'x) 1 2 3 4');
    copyFileSync('/bin/sleep', program);
    const child = spawn(program, ['30'], { stdio: 'ignore' });
    await new Promise((resolve) => child.once('spawn', resolve));
    const pid = child.pid ?? 0;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    expect(stat).toContain('(x) 1 2 3 4)');
    const expected = stat.replace(/\(.*\)/s, '(x)').split(' ')[21];
    expect(processStartTime(pid)).toBe(expected);

    const owner = { pid, started: processStartTime(pid), host: currentProcess().host };
    expect(isOwnerAlive(owner)).toBe(true);
    // the same pid with another start time is a newer process: the owner is gone
    expect(isOwnerAlive({ ...owner, started: `${Number(owner.started) - 1}` })).toBe(false);
    // another host's process table is not this one's to judge
    expect(isOwnerAlive({ ...owner, host: 'another-host' })).toBeUndefined();
    // nor another pid namespace's (a Flatpak app, a CLI in a container): the same pid there is another process
    expect(isOwnerAlive({ ...owner, pidNamespace: 'pid:[1]' })).toBeUndefined();
    expect(isOwnerAlive({ ...owner, pidNamespace: currentProcess().pidNamespace })).toBe(true);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect(isOwnerAlive(owner)).toBe(false);
  });
});
