import { Command } from 'commander';
import { addTurnOptions, type TurnOptions } from '../turn-options.js';

/** `manus run "<task>"`: the single Manus agent on one task (or a follow-up with --session). */
export function runCommand(): Command {
  return addTurnOptions(
    new Command('run')
      .description('run the Manus agent on a task and watch it think and act')
      .argument('<task...>', 'what to do'),
    {
      workspace: 'the folder the agent works in (default: a new folder per session)',
      maxSteps: 'step limit of the agent',
    },
  ).action(async (taskWords: string[], options: TurnOptions, command: Command) => {
    const { runTurnFromCli } = await import('../run-session.js');
    await runTurnFromCli(command, options, (service) =>
      service.start({
        task: taskWords.join(' '),
        sessionId: options.session,
        workspace: options.workspace,
        maxSteps: options.maxSteps,
        maxTotalTokens: options.maxTokens,
        mode: 'agent',
      }),
    );
  });
}
