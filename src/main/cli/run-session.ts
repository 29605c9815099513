import { InvalidArgumentError, Option, type Command } from 'commander';
import type { CoreEvent } from '../../shared/events.js';
import { createCliCore, openCliContext } from './cli-context.js';
import type { RunResult, SessionService } from '../session/session-service.js';
import { createHumanPrinter } from './output/human-printer.js';
import { createJsonPrinter } from './output/json-printer.js';
import { terminalText } from './output/terminal-text.js';
import { createTtyAnswerer } from './tty-answerer.js';

export const EXIT_CODES = {
  finished: 0,
  failed: 1,
  usage: 2,
  cancelled: 130,
  interrupted: 1,
  running: 1,
  idle: 0,
} as const;

/**
 * Shows one turn of a session in the terminal until it is done; the first Ctrl-C cancels the run
 * (the session stays consistent), a second one exits at once.
 */
export async function followRun(
  service: SessionService,
  start: () => { sessionId: string; done: Promise<RunResult> },
  options: { json: boolean },
): Promise<number> {
  const print = options.json ? createJsonPrinter() : createHumanPrinter();
  const answerer = process.stdin.isTTY
    ? createTtyAnswerer((sessionId, askId, text) => service.answer(sessionId, askId, text))
    : undefined;
  const unsubscribe = service.subscribe((event: CoreEvent) => {
    print(event);
    answerer?.(event);
  });
  let run: { sessionId: string; done: Promise<RunResult> } | undefined;
  let interrupts = 0;
  const onSigint = () => {
    interrupts++;
    if (interrupts > 1 || !run) process.exit(EXIT_CODES.cancelled);
    process.stderr.write('\nCancelling… (Ctrl-C again to quit at once)\n');
    void service.cancel(run.sessionId);
  };
  process.on('SIGINT', onSigint);
  try {
    run = start();
    const result = await run.done;
    if (result.status !== 'finished') {
      process.stderr.write(`manus: ${result.status}: ${terminalText(firstLine(result.result))}\n`);
    } else if (!options.json) process.stderr.write(`\nSession ${result.sessionId} finished.\n`);
    return EXIT_CODES[result.status];
  } finally {
    process.off('SIGINT', onSigint);
    unsubscribe();
    await service.close();
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0] ?? '';
}

/** A command-line count (steps, parallel runs, list length). */
export function positiveInt(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('must be a positive whole number');
  return parsed;
}

/** The flags `run` and `flow` share: output, workspace, model, endpoint, step limit, sandbox, session. */
export function addTurnOptions(command: Command, help: { workspace: string; maxSteps: string }): Command {
  return command
    .option('--json', 'print events as NDJSON on stdout (one event per line)')
    .option('--workspace <dir>', help.workspace)
    .option('--model <model>', 'a configured provider name or a model id')
    .option('--base-url <url>', 'an OpenAI-compatible endpoint')
    .option('--max-steps <n>', help.maxSteps, positiveInt)
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
  sandbox?: 'docker' | 'local';
  engine?: string;
  session?: string;
}

/**
 * What `run`, `flow` and `resume` share: open the data folder, build the core with this command's LLM and
 * sandbox flags, follow one turn in the terminal, and set the exit code from how it ended.
 */
export async function runTurnFromCli(
  command: Command,
  options: TurnOptions,
  start: (service: SessionService) => { sessionId: string; done: Promise<RunResult> },
): Promise<void> {
  const context = openCliContext({ dataDir: command.optsWithGlobals<{ dataDir?: string }>().dataDir });
  try {
    const { service } = createCliCore(context, {
      llm: { model: options.model, baseUrl: options.baseUrl },
      humanAvailable: Boolean(process.stdin.isTTY),
      adjust: (settings) => ({
        ...settings,
        sandbox: {
          ...settings.sandbox,
          mode: options.sandbox ?? settings.sandbox.mode,
          engine: options.engine ?? settings.sandbox.engine,
        },
      }),
    });
    process.exitCode = await followRun(service, () => start(service), { json: Boolean(options.json) });
  } finally {
    context.close();
  }
}
