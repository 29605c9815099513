import { Command, InvalidArgumentError, Option } from 'commander';
import { runTurnFromCli } from '../run-session.js';

export function positiveInt(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('must be a positive whole number');
  return parsed;
}

interface RunOptions {
  json?: boolean;
  workspace?: string;
  model?: string;
  baseUrl?: string;
  maxSteps?: number;
  sandbox?: 'docker' | 'local';
  session?: string;
}

/** `manus run "<task>"`: the single Manus agent on one task (or a follow-up with --session). */
export function runCommand(): Command {
  return new Command('run')
    .description('run the Manus agent on a task and watch it think and act')
    .argument('<task...>', 'what to do')
    .option('--json', 'print events as NDJSON on stdout (one event per line)')
    .option('--workspace <dir>', 'the folder the agent works in (default: a new folder per session)')
    .option('--model <model>', 'a configured provider name or a model id')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint')
    .option('--max-steps <n>', 'step limit of the agent', positiveInt)
    .addOption(new Option('--sandbox <mode>', 'where code runs').choices(['docker', 'local']))
    .option('--session <id>', 'continue an existing session with this message')
    .action(async (taskWords: string[], options: RunOptions, command: Command) => {
      await runTurnFromCli(command, options, (service) =>
        service.start({
          task: taskWords.join(' '),
          sessionId: options.session,
          workspace: options.workspace,
          maxSteps: options.maxSteps,
          mode: 'agent',
        }),
      );
    });
}
