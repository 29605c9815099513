import { Command } from 'commander';
import { createCliCore, openCliContext } from '../cli-context.js';
import { followRun } from '../run-session.js';

/** `manus resume ID`: continues an interrupted, cancelled or failed session where it stopped (agent or flow). */
export function resumeCommand(): Command {
  return new Command('resume')
    .description('continue an interrupted, cancelled or failed session where it stopped')
    .argument('<id>', 'the session id (see `manus sessions list`)')
    .option('--json', 'print events as NDJSON on stdout (one event per line)')
    .action(async (sessionId: string, options: { json?: boolean }, command: Command) => {
      const globals = command.optsWithGlobals<{ dataDir?: string }>();
      const context = openCliContext({ dataDir: globals.dataDir });
      try {
        const { service } = createCliCore(context, { humanAvailable: Boolean(process.stdin.isTTY) });
        process.exitCode = await followRun(service, () => service.resume(sessionId), { json: Boolean(options.json) });
      } finally {
        context.close();
      }
    });
}
