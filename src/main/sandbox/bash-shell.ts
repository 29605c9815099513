import { z } from 'zod';
import type { DroppedMiddle } from './clip-output.js';
import type { ProcessChannel, ProcessExit } from './process-channel.js';

const READY_TIMEOUT_MS = 15_000;
/** unread output kept while nobody collects it (a chatty background job); the middle is dropped beyond this */
const UNREAD_CAP_CHARS = 1_000_000;
/** after Ctrl-C, how long a command has to end before the shell's whole process group is killed */
const STOP_GRACE_MS = 3_000;

const ShellEventSchema = z.discriminatedUnion('ev', [
  z.object({ ev: z.literal('ready'), pid: z.number().int() }),
  z.object({ ev: z.literal('out'), data: z.string() }),
  z.object({ ev: z.literal('done'), id: z.number().int(), code: z.number().int() }),
  z.object({ ev: z.literal('exit'), code: z.number().int() }),
]);
type ShellEvent = z.infer<typeof ShellEventSchema>;

export interface ShellWaitOptions {
  /** return when the command has printed nothing new for this long (it keeps running) */
  idleMs?: number;
  /** return after this long at most (it keeps running) */
  maxWaitMs: number;
  signal?: AbortSignal;
  onOutput?: (text: string) => void;
}

export interface ShellTurn {
  output: string;
  /** the middle of the output left out to bound memory (a command printing more than UNREAD_CAP_CHARS) */
  dropped?: DroppedMiddle;
  /** set when the command finished during this turn */
  exitCode?: number;
  /** the command is still running after this turn */
  running: boolean;
  /** why the turn ended */
  reason: 'done' | 'idle' | 'timeout' | 'aborted' | 'shell_exited' | 'not_running' | 'killed';
  /** the shell itself ended (the command ran `exit`, or the sandbox went away) */
  shellExit?: ProcessExit;
}

/** Client of one persistent shell (see resources/sandbox/drivers/bash_shell.py): one foreground command at a time. */
export class BashShell {
  private nextId = 1;
  private runningId: number | undefined;
  private unread = '';
  private droppedChars = 0;
  private exit: ProcessExit | undefined;
  private lastDone: { id: number; code: number } | undefined;
  private readonly wakers = new Set<() => void>();

  private constructor(
    private readonly channel: ProcessChannel,
    readonly pid: number,
  ) {
    channel.onLine((line) => this.receive(line));
    void channel.exited.then((exit) => {
      this.exit = exit;
      this.wake();
    });
  }

  static async start(channel: ProcessChannel): Promise<BashShell> {
    let stderr = '';
    channel.onStderr((text) => {
      stderr = (stderr + text).slice(-2000);
    });
    const pid = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the shell did not start within 15 s')), READY_TIMEOUT_MS);
      channel.onLine((line) => {
        const event = parseEvent(line);
        if (event?.ev === 'ready') {
          clearTimeout(timer);
          resolve(event.pid);
        }
      });
      void channel.exited.then((exit) => {
        clearTimeout(timer);
        reject(new Error(`the shell exited at start (code ${exit.code ?? 'unknown'}): ${stderr.trim()}`));
      });
    });
    return new BashShell(channel, pid);
  }

  get alive(): boolean {
    return this.exit === undefined && !this.channel.ended;
  }

  get running(): boolean {
    return this.runningId !== undefined && this.alive;
  }

  async run(command: string, options: ShellWaitOptions): Promise<ShellTurn> {
    if (this.running) throw new Error('a command is still running');
    this.runningId = this.nextId++;
    this.channel.write(JSON.stringify({ op: 'run', id: this.runningId, command }) + '\n');
    return this.collect(options);
  }

  async input(text: string, options: ShellWaitOptions): Promise<ShellTurn> {
    this.channel.write(JSON.stringify({ op: 'input', data: text }) + '\n');
    return this.collect(options);
  }

  async interrupt(options: ShellWaitOptions): Promise<ShellTurn> {
    this.channel.write(JSON.stringify({ op: 'interrupt' }) + '\n');
    return this.collect(options);
  }

  async wait(options: ShellWaitOptions): Promise<ShellTurn> {
    return this.collect(options);
  }

  /**
   * Stops the running command, for whoever needs it stopped (ctrl_c, a cancel, a timeout, a watchdog): Ctrl-C first;
   * if the command has not ended after `graceMs` (it ignores SIGINT), SIGKILL to the shell's whole process group
   * (the command, its children, background jobs and the shell itself). A killed shell is gone: the turn says
   * `reason: 'killed'` and the next acquire starts a new shell.
   */
  async stop(options: { graceMs?: number; onOutput?: (text: string) => void } = {}): Promise<ShellTurn> {
    if (!this.running) return this.collect({ maxWaitMs: 0 });
    const interrupted = await this.interrupt({
      maxWaitMs: options.graceMs ?? STOP_GRACE_MS,
      onOutput: options.onOutput,
    });
    if (!interrupted.running) return interrupted;
    await this.kill();
    const rest = this.takeUnread();
    const output = interrupted.output + rest.output;
    const dropped =
      interrupted.dropped ?? (rest.dropped && { ...rest.dropped, at: rest.dropped.at + interrupted.output.length });
    this.runningId = undefined;
    return { output, running: false, reason: 'killed', ...(dropped ? { dropped } : {}) };
  }

  /** Kills the shell's whole process group and ends the driver. */
  async kill(): Promise<void> {
    await this.channel.kill(this.pid);
  }

  /** Waits for the running command to end, go quiet, or run out of time, and hands over what it printed. */
  private async collect(options: ShellWaitOptions): Promise<ShellTurn> {
    const commandId = this.runningId;
    if (commandId === undefined || !this.alive) {
      const shellExit = this.exit;
      return { ...this.takeUnread(), running: false, reason: 'not_running', ...(shellExit ? { shellExit } : {}) };
    }
    const started = Date.now();
    let lastOutputAt = started;
    let seen = this.unread.length;
    options.onOutput?.(this.unread);
    const reason = await new Promise<ShellTurn['reason']>((resolve) => {
      const check = (): void => {
        if (this.unread.length !== seen) {
          options.onOutput?.(this.unread.slice(seen));
          seen = this.unread.length;
          lastOutputAt = Date.now();
        }
        if (this.runningId === undefined) return finish('done');
        if (this.exit) return finish('shell_exited');
        if (options.signal?.aborted) return finish('aborted');
        const now = Date.now();
        if (now - started >= options.maxWaitMs) return finish('timeout');
        if (options.idleMs !== undefined && now - lastOutputAt >= options.idleMs) return finish('idle');
      };
      const timer = setInterval(check, 50);
      const finish = (why: ShellTurn['reason']): void => {
        clearInterval(timer);
        this.wakers.delete(check);
        options.signal?.removeEventListener('abort', check);
        resolve(why);
      };
      this.wakers.add(check);
      options.signal?.addEventListener('abort', check);
      check();
    });
    const printed = this.takeUnread();
    if (reason === 'done') {
      const code = this.lastDone?.id === commandId ? this.lastDone.code : undefined;
      return { ...printed, running: false, reason, ...(code !== undefined ? { exitCode: code } : {}) };
    }
    if (reason === 'shell_exited') {
      this.runningId = undefined;
      return { ...printed, running: false, reason, ...(this.exit ? { shellExit: this.exit } : {}) };
    }
    return { ...printed, running: true, reason };
  }

  private takeUnread(): { output: string; dropped?: DroppedMiddle } {
    const output = this.unread;
    const dropped = this.droppedChars > 0 ? { at: UNREAD_CAP_CHARS / 2, chars: this.droppedChars } : undefined;
    this.unread = '';
    this.droppedChars = 0;
    return dropped ? { output, dropped } : { output };
  }

  private receive(line: string): void {
    const event = parseEvent(line);
    if (!event) return;
    if (event.ev === 'out') {
      this.unread += event.data;
      if (this.unread.length > UNREAD_CAP_CHARS) {
        const half = UNREAD_CAP_CHARS / 2;
        this.droppedChars += this.unread.length - UNREAD_CAP_CHARS;
        this.unread = this.unread.slice(0, half) + this.unread.slice(this.unread.length - half);
      }
    } else if (event.ev === 'done' && event.id === this.runningId) {
      this.lastDone = { id: event.id, code: event.code };
      this.runningId = undefined;
    }
    this.wake();
  }

  private wake(): void {
    for (const waker of [...this.wakers]) waker();
  }
}

function parseEvent(line: string): ShellEvent | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed = ShellEventSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
