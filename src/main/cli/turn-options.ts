import { InvalidArgumentError, Option, type Command } from 'commander';

/** A command-line count (steps, parallel runs, list length). */
export function positiveInt(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('must be a positive whole number');
  return parsed;
}

/** `--max-tokens`: what counts, for every command that takes it (`run`, `flow`, `resume`). */
export const MAX_TOKENS_HELP =
  'stop this run before its next model call once its calls have used n tokens (prompt + completion as the ' +
  'provider reports them, counting every agent, planner and summary call of this run only; the setting ' +
  'agent.maxTotalTokens is a budget for the whole session, all its runs together)';

/** The flags `run` and `flow` share: output, workspace, model, endpoint, step and token limits, sandbox, session. */
export function addTurnOptions(command: Command, help: { workspace: string; maxSteps: string }): Command {
  return command
    .option('--json', 'print events as NDJSON on stdout (one event per line)')
    .option('--workspace <dir>', help.workspace)
    .option('--model <model>', 'a configured provider name or a model id')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint')
    .option('--max-steps <n>', help.maxSteps, positiveInt)
    .option('--max-tokens <n>', MAX_TOKENS_HELP, positiveInt)
    .addOption(new Option('--sandbox <mode>', 'where code runs').choices(['docker', 'local']))
    .option(
      '--engine <context|url>',
      'the Docker engine for the sandbox: a context name or endpoint URL (ssh://, tcp://)',
    )
    .option('--session <id>', 'continue an existing session with this message');
}

/** The values of the flags `addTurnOptions` adds. */
export interface TurnOptions {
  json?: boolean;
  workspace?: string;
  model?: string;
  baseUrl?: string;
  maxSteps?: number;
  maxTokens?: number;
  sandbox?: 'docker' | 'local';
  engine?: string;
  session?: string;
}
