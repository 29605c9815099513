import { spawn } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import { Command } from 'commander';

export const SWEEP_COMMAND = 'sweep-sandboxes';

/** `manus sweep-sandboxes` (hidden): the sweep every start asks for, run by the process `startSweep` starts. */
export function sweepCommand(): Command {
  return new Command(SWEEP_COMMAND)
    .description('remove the sandbox containers of manus processes that are gone')
    .action(async () => {
      const { sweepOrphanSandboxesInBackground } = await import('../../sandbox/orphan-sandboxes.js');
      await sweepOrphanSandboxesInBackground();
    });
}

/**
 * Sweeps the sandboxes of dead manus processes in a process of its own that outlives this one: loading Docker's
 * client and waiting for the engine then cost the command nothing (`manus sessions list` stays quick).
 */
export function startSweep(): void {
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
