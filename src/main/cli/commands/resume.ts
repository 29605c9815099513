import { Command } from 'commander';
import { MAX_TOKENS_HELP, positiveInt } from '../turn-options.js';

/** `manus resume ID`: continues an interrupted, cancelled or failed session where it stopped (agent or flow). */
export function resumeCommand(): Command {
  return new Command('resume')
    .description('continue an interrupted, cancelled or failed session where it stopped')
    .argument('<id>', 'the session id (see `manus sessions list`)')
    .option('--json', 'print events as NDJSON on stdout (one event per line)')
    .option('--max-tokens <n>', MAX_TOKENS_HELP, positiveInt)
    .action(async (sessionId: string, options: { json?: boolean; maxTokens?: number }, command: Command) => {
      const { runTurnFromCli } = await import('../run-session.js');
      await runTurnFromCli(command, options, (service) =>
        service.resume(sessionId, { maxTotalTokens: options.maxTokens }),
      );
    });
}
