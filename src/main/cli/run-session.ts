import type { Command } from 'commander';
import type { CoreEvent } from '../../shared/events.js';
import { openCliContext } from './cli-context.js';
import { createCliCore } from './cli-core.js';
import { EXIT_CODES } from './exit-codes.js';
import type { TurnOptions } from './turn-options.js';
import { runEnvironmentOf } from './run-environment.js';
import type { RunResult, SessionService } from '../session/session-service.js';
import { createHumanPrinter } from './output/human-printer.js';
import { createJsonPrinter } from './output/json-printer.js';
import { printErr } from './output/terminal-print.js';
import { createTtyAnswerer } from './tty-answerer.js';

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
    printErr.line`\nCancelling… (Ctrl-C again to quit at once)`;
    void service.cancel(run.sessionId);
  };
  process.on('SIGINT', onSigint);
  try {
    run = start();
    const result = await run.done;
    if (result.status !== 'finished') {
      printErr.line`manus: ${result.status}: ${firstLine(result.result)}`;
    } else if (!options.json) printErr.line`\nSession ${result.sessionId} finished.`;
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
      ...runEnvironmentOf(options),
      humanAvailable: Boolean(process.stdin.isTTY),
    });
    process.exitCode = await followRun(service, () => start(service), { json: Boolean(options.json) });
  } finally {
    context.close();
  }
}
