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

/**
 * The flags of every command that runs the agent (`run`, `flow`, `resume`, `serve`, `a2a`, `mcp-server`): which model
 * it thinks with and where its code runs, for this process only (nothing is saved).
 */
export function addRunEnvironmentOptions(command: Command): Command {
  return command
    .option('--model <model>', 'a configured provider name or a model id')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint')
    .addOption(new Option('--sandbox <mode>', 'where code runs').choices(['docker', 'local']))
    .option(
      '--engine <context|url>',
      'the Docker engine for the sandbox: a context name or endpoint URL (ssh://, tcp://)',
    );
}

/** The values of the flags `addRunEnvironmentOptions` adds. */
export interface RunEnvironmentOptions {
  model?: string;
  baseUrl?: string;
  sandbox?: 'docker' | 'local';
  engine?: string;
}

/** The flags `run` and `flow` share: output, workspace, step and token limits and session, besides the run environment's. */
export function addTurnOptions(command: Command, help: { workspace: string; maxSteps: string }): Command {
  return addRunEnvironmentOptions(
    command
      .option('--json', 'print events as NDJSON on stdout (one event per line)')
      .option('--workspace <dir>', help.workspace),
  )
    .option('--max-steps <n>', help.maxSteps, positiveInt)
    .option('--max-tokens <n>', MAX_TOKENS_HELP, positiveInt)
    .option('--session <id>', 'continue an existing session with this message');
}

/** The values of the flags `addTurnOptions` adds. */
export interface TurnOptions extends RunEnvironmentOptions {
  json?: boolean;
  workspace?: string;
  maxSteps?: number;
  maxTokens?: number;
  session?: string;
}
