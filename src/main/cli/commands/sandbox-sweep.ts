import { spawn } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { constants, setPriority } from 'node:os';
import { Command } from 'commander';

export const SWEEP_COMMAND = 'sweep-sandboxes';
/** the file whose time says when a command of this data folder last started a sweep */
export const SWEEP_STAMP_FILE = 'sandbox-sweep.stamp';
/** a sweep started less than this long ago covers the next commands of the same data folder */
const SWEEP_INTERVAL_MS = 60_000;

/** `manus sweep-sandboxes` (hidden): the sweep every start asks for, run by the process `startSweep` starts. */
export function sweepCommand(): Command {
  return new Command(SWEEP_COMMAND)
    .description('remove the sandbox containers of manus processes that are gone')
    .action(async () => {
      const { sweepOrphanSandboxesInBackground } = await import('../../sandbox/orphan-sandboxes.js');
      await sweepOrphanSandboxesInBackground();
    });
}

/** Whether this data folder's last sweep started long enough ago; if so, marks this one as started now. */
function sweepDue(dataDir: string): boolean {
  const stamp = join(dataDir, SWEEP_STAMP_FILE);
  try {
    if (Date.now() - statSync(stamp).mtimeMs < SWEEP_INTERVAL_MS) return false;
  } catch {
    // no stamp yet: the first sweep of this data folder
  }
  try {
    writeFileSync(stamp, `${new Date().toISOString()}\n`);
  } catch {
    // a data folder that cannot take the stamp still gets its sweep
  }
  return true;
}

/**
 * Sweeps the sandboxes of dead manus processes in a process of its own that outlives this one: loading Docker's
 * client and waiting for the engine then cost the command nothing (`manus sessions list` stays quick). At most
 * once a minute per data folder: a script calling manus in a loop does not start a sweeper per call.
 */
export function startSweep(dataDir: string): void {
  if (!sweepDue(dataDir)) return;
  const [script] = process.argv.slice(1);
  const sweeper = spawn(process.execPath, [...process.execArgv, script, SWEEP_COMMAND], {
    detached: true,
    stdio: 'ignore',
    windowsHide: true,
  });
  // like the in-process sweep before it, a sweep that cannot start costs the command nothing
  sweeper.on('error', () => undefined);
  sweeper.unref();
  // housekeeping: it yields the CPU to the command that asked for it
  if (sweeper.pid) setPriority(sweeper.pid, constants.priority.PRIORITY_LOW);
}
