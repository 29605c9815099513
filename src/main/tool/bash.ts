import { z } from 'zod';
import type { BashShell, ShellTurn, ShellWaitOptions } from '../sandbox/bash-shell.js';
import { clipBetween } from '../sandbox/clip-output.js';
import { SandboxUnavailableError, errorText } from '../sandbox/engine.js';
import { toolProgress } from './tool-progress.js';
import type { QuotaNotice } from '../sandbox/workspace-quota.js';
import { defineTool, toolError, toolOutput, type ToolContext, type ToolResult } from './tool.js';

export const BashParameters = z.object({
  command: z
    .string()
    .optional()
    .describe(
      'Shell command(s) to run. The shell persists between calls: cd, exported variables and background jobs (&) stay.',
    ),
  timeout: z
    .number()
    .positive()
    .max(3600)
    .optional()
    .describe(
      'Longest the command may run, in seconds (default 120); then it is stopped (Ctrl-C, or killed with the shell if ' +
        'it ignores that). A command that goes quiet before returns early and keeps running.',
    ),
  input: z
    .string()
    .optional()
    .describe('Text typed into the running command (a newline is added unless present), e.g. an answer to a prompt.'),
  ctrl_c: z
    .boolean()
    .optional()
    .describe(
      'Send Ctrl-C (SIGINT) to the running command; one that ignores it is killed, with the shell (its state is lost).',
    ),
  wait_seconds: z
    .number()
    .positive()
    .max(3600)
    .optional()
    .describe('Wait up to this many seconds for the running command to print more or finish.'),
});
type BashArgs = z.infer<typeof BashParameters>;

export const bashTool = defineTool({
  name: 'bash',
  kind: 'bash',
  description:
    'Run bash commands in the session sandbox (Debian, as an unprivileged user; working directory /workspace, which the user ' +
    'sees). One persistent shell per session. Output (stdout and stderr together) and the exit code are returned. A command ' +
    'that prints nothing new for a while returns what it printed so far and keeps running: call again with wait_seconds to ' +
    'keep waiting, input to answer it, or ctrl_c to stop it. Avoid interactive full-screen programs.',
  parameters: BashParameters,
  risk: 'execute',
  async execute(args, ctx: ToolContext<'settings' | 'sandbox'>) {
    if (args.command === undefined && args.input === undefined && !args.ctrl_c && args.wait_seconds === undefined) {
      return toolError('Give a command to run, or input / ctrl_c / wait_seconds for the command that is running.');
    }
    const settings = ctx.session.settings();
    const progress = toolProgress(ctx, 'bash', args);
    const waitOptions: ShellWaitOptions = {
      idleMs: settings.sandbox.bashIdleSeconds * 1000,
      maxWaitMs: (args.timeout ?? settings.sandbox.bashTimeoutSeconds) * 1000,
      signal: ctx.signal,
      onOutput: (text) => progress.push(text),
    };
    let sandbox;
    try {
      sandbox = await ctx.session.sandbox.get();
    } catch (error) {
      return toolError(errorText(error));
    }
    try {
      const acquired = await sandbox.acquireShell((text) => progress.push(`${text}\n`, true));
      const { driver: shell, notes } = acquired;
      try {
        let outcome = await drive(shell, args, waitOptions);
        if (typeof outcome === 'string') return toolError([...notes, outcome].join('\n'));
        // a cancelled call leaves nothing running: a command that ignores Ctrl-C is killed with its shell
        if (outcome.reason === 'aborted' && shell.running) {
          outcome = { ...mergeTurns([outcome, await shell.stop()]), stoppedFor: 'cancel' };
        }
        const quota = await sandbox.quotaAfterCall(acquired.quotaMark);
        if (outcome.shellExit || outcome.reason === 'killed') sandbox.markLossReported('shell');
        return describeTurn(outcome, notes, waitOptions, settings.agent.maxObserve, quota);
      } finally {
        progress.stop();
        await sandbox.release();
      }
    } catch (error) {
      if (error instanceof SandboxUnavailableError) return toolError(error.message);
      return toolError(`The shell sandbox failed: ${errorText(error)}`);
    }
  },
});

/** A call's turns merged, with why the tool stopped the command when it did. */
type BashOutcome = ShellTurn & { stoppedFor?: 'timeout' | 'cancel'; notRun?: boolean };

/** Applies ctrl_c, then input, then command, then waiting, merging what each step printed. A string is a refusal. */
async function drive(shell: BashShell, args: BashArgs, options: ShellWaitOptions): Promise<BashOutcome | string> {
  const turns: ShellTurn[] = [];
  if (args.ctrl_c) {
    const stopped = shell.running
      ? await shell.stop({ onOutput: options.onOutput })
      : { output: '', running: false, reason: 'not_running' as const };
    // the shell went with the command: a new one starts with the next call
    if (stopped.reason === 'killed')
      return { ...stopped, notRun: args.command !== undefined || args.input !== undefined };
    turns.push(stopped);
  }
  const waitFor =
    args.wait_seconds !== undefined ? { ...options, idleMs: undefined, maxWaitMs: args.wait_seconds * 1000 } : options;
  if (args.input !== undefined) {
    if (!shell.running) return 'No command is running to send input to. Run a command first.';
    const text = args.input.endsWith('\n') ? args.input : `${args.input}\n`;
    turns.push(await shell.input(text, args.command === undefined ? waitFor : { ...options, maxWaitMs: 0 }));
  }
  if (args.command !== undefined) {
    if (shell.running) {
      return (
        'A command started earlier is still running, so this one was not run. Call bash with wait_seconds to wait for it, ' +
        'input to answer it, or ctrl_c: true to stop it (ctrl_c can be combined with a new command).'
      );
    }
    const ran = await shell.run(args.command, options);
    turns.push(ran);
    // the command ran out of its time: stop it (a cancelled one is stopped by the caller)
    if (ran.reason === 'timeout') {
      turns.push(await shell.stop({ onOutput: options.onOutput }));
      return { ...mergeTurns(turns), stoppedFor: 'timeout' };
    }
  } else if (args.input === undefined && args.wait_seconds !== undefined) {
    turns.push(await shell.wait(waitFor));
  }
  return mergeTurns(turns);
}

/** One turn out of several (ctrl_c then a new command): earlier turns keep their own exit code line. */
function mergeTurns(turns: ShellTurn[]): ShellTurn {
  const last = turns[turns.length - 1] ?? { output: '', running: false, reason: 'not_running' as const };
  const earlier = turns.slice(0, -1).map((turn) => {
    if (turn.exitCode === undefined) return turn.output;
    const lines = [turn.output.trim() ? turn.output.replace(/\n$/, '') : '', `[exit code ${turn.exitCode}]`];
    return `${lines.filter(Boolean).join('\n')}\n`;
  });
  // the driver's middle cut, moved to where its turn starts in the merged output (one per call in practice)
  let dropped: ShellTurn['dropped'];
  let offset = 0;
  turns.forEach((turn, index) => {
    if (turn.dropped) dropped = { ...turn.dropped, at: turn.dropped.at + offset };
    offset += earlier[index]?.length ?? 0;
  });
  return { ...last, output: earlier.join('') + last.output, ...(dropped ? { dropped } : {}) };
}

const KILLED_NOTE =
  'The command did not stop on Ctrl-C, so it was killed together with its shell (the whole process group). The next ' +
  'call starts a new shell: the working directory, variables and background jobs were lost; files in the workspace are kept.';

function describeTurn(
  turn: BashOutcome,
  notes: string[],
  options: ShellWaitOptions,
  maxObserve: number,
  quota: QuotaNotice | undefined,
): ToolResult {
  // everything after the output is added after clipping it, so the exit code and notes always reach the model
  const status: string[] = [];
  if (turn.stoppedFor === 'timeout') {
    status.push(`[stopped: the command ran longer than its timeout of ${options.maxWaitMs / 1000} s; Ctrl-C was sent]`);
  }
  if (turn.stoppedFor === 'cancel') status.push('[stopped: the call was cancelled; Ctrl-C was sent]');
  if (turn.exitCode !== undefined && !turn.running) status.push(`[exit code ${turn.exitCode}]`);
  if (turn.reason === 'not_running' && turn.exitCode === undefined) status.push('[no command is running]');
  if (turn.running) {
    const why =
      turn.reason === 'idle'
        ? `no new output for ${(options.idleMs ?? 0) / 1000} s`
        : 'this call waited as long as allowed';
    status.push(
      `[still running (${why}). It keeps running: call bash with wait_seconds to wait for more output, input to type ` +
        'into it, or ctrl_c: true to interrupt it.]',
    );
  }
  let system: string | undefined;
  if (quota?.stopped) {
    // the shell was killed on purpose: the quota, not a crash, is what the model must hear
    system = quota.text;
    status.push(`[${system}]`);
  } else if (turn.reason === 'killed') {
    system = KILLED_NOTE;
    status.push(`[${system}]`);
    if (turn.notRun) status.push('[The new command or input of this call was not run: call bash again with it.]');
  } else if (turn.shellExit) {
    system = turn.shellExit.lost
      ? 'The sandbox stopped during the command (container or Docker engine gone): shell state was lost; the next call starts a new one.'
      : `The shell exited (code ${turn.shellExit.code ?? 'unknown'}). The next call starts a new shell: working directory, variables and background jobs are reset.`;
    status.push(`[${system}]`);
  }
  if (quota && !quota.stopped) status.push(`[${quota.text}]`);
  const text = clipBetween(notes, turn.output.replace(/\n$/, ''), status, maxObserve, turn.dropped);
  const error = quota?.stopped ? { error: 'The workspace went over its disk quota (details above).' } : {};
  return toolOutput(text || '(no output)', { ...(system ? { system } : {}), ...error });
}
