import { z } from 'zod';
import type { DroppedMiddle } from './clip-output.js';
import type { ProcessChannel, ProcessExit } from './process-channel.js';

const READY_TIMEOUT_MS = 15_000;
/** how long an interrupted cell may take to unwind before the interpreter is killed */
const INTERRUPT_GRACE_MS = 3_000;

const ReplEventSchema = z.discriminatedUnion('ev', [
  z.object({ ev: z.literal('ready'), pid: z.number().int(), python: z.string() }),
  z.object({ ev: z.literal('out'), id: z.number().int().nullable(), data: z.string() }),
  z.object({
    ev: z.literal('done'),
    id: z.number().int(),
    error: z.boolean(),
    dropped: z.number().int(),
    tail: z.string().default(''),
    images: z.array(z.object({ data: z.string(), path: z.string().nullable() })),
  }),
]);
type ReplEvent = z.infer<typeof ReplEventSchema>;

export interface PythonFigure {
  /** base64 PNG */
  data: string;
  /** where it was saved, as the interpreter sees it (e.g. /workspace/figures/figure-1.png) */
  path?: string;
}

export interface PythonRunResult {
  output: string;
  failed: boolean;
  images: PythonFigure[];
  /** the middle of the output the interpreter left out beyond its own cap (its head and tail are kept) */
  dropped?: DroppedMiddle;
  /** the cell was interrupted: it ran past its timeout, or the call was cancelled */
  interrupted?: 'timeout' | 'cancelled';
  /** the interpreter is gone (killed, crashed, out of memory, engine lost): its state is lost */
  lost?: { reason: string; exit?: ProcessExit };
}

export interface PythonRunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  onOutput?: (text: string) => void;
}

interface PendingCell {
  id: number;
  chunks: string[];
  onOutput?: (text: string) => void;
  resolve: (event: Extract<ReplEvent, { ev: 'done' }>) => void;
}

/** Client of one persistent interpreter (see resources/sandbox/drivers/python_repl.py): one cell at a time. */
export class PythonRepl {
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private pending: PendingCell | undefined;
  private carry: string[] = [];
  private dead = false;
  private stderrTail = '';

  private constructor(
    private readonly channel: ProcessChannel,
    readonly pid: number,
  ) {
    channel.onLine((line) => this.receive(line));
    channel.onStderr((text) => {
      this.stderrTail = (this.stderrTail + text).slice(-2000);
    });
    void channel.exited.then(() => {
      this.dead = true;
    });
  }

  static async start(channel: ProcessChannel): Promise<PythonRepl> {
    let stderr = '';
    channel.onStderr((text) => {
      stderr = (stderr + text).slice(-2000);
    });
    const ready = await new Promise<Extract<ReplEvent, { ev: 'ready' }>>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('the Python interpreter did not start within 15 s')),
        READY_TIMEOUT_MS,
      );
      channel.onLine((line) => {
        const event = parseEvent(line);
        if (event?.ev === 'ready') {
          clearTimeout(timer);
          resolve(event);
        }
      });
      void channel.exited.then((exit) => {
        clearTimeout(timer);
        reject(new Error(`the Python interpreter exited at start (code ${exit.code ?? 'unknown'}): ${stderr.trim()}`));
      });
    });
    return new PythonRepl(channel, ready.pid);
  }

  get alive(): boolean {
    return !this.dead && !this.channel.ended;
  }

  /** Cells run one after another: a second call made while one runs waits for its turn. */
  run(code: string, options: PythonRunOptions): Promise<PythonRunResult> {
    const result = this.queue.then(() => this.runNow(code, options));
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async runNow(code: string, options: PythonRunOptions): Promise<PythonRunResult> {
    if (this.dead) return { ...emptyResult(), lost: { reason: 'the interpreter had already exited' } };
    const id = this.nextId++;
    const done = new Promise<Extract<ReplEvent, { ev: 'done' }>>((resolve) => {
      this.pending = { id, chunks: this.carry, onOutput: options.onOutput, resolve };
      this.carry = [];
    });
    this.channel.write(JSON.stringify({ op: 'exec', id, code }) + '\n');
    const exited = this.channel.exited.then((exit) => ({ exit }));
    let interrupted: PythonRunResult['interrupted'];
    const interrupt = new Promise<'interrupt'>((resolve) => {
      const timer = setTimeout(() => {
        interrupted = 'timeout';
        resolve('interrupt');
      }, options.timeoutMs);
      const onAbort = (): void => {
        interrupted = 'cancelled';
        resolve('interrupt');
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      void done.finally(() => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      });
    });
    let outcome = await Promise.race([done, exited, interrupt]);
    if (outcome === 'interrupt') {
      this.channel.write(JSON.stringify({ op: 'interrupt' }) + '\n');
      const grace = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), INTERRUPT_GRACE_MS));
      const afterInterrupt = await Promise.race([done, exited, grace]);
      if (afterInterrupt === 'stuck') {
        await this.kill();
        return this.finishLost('it did not respond to the interrupt and was restarted', interrupted);
      }
      outcome = afterInterrupt;
    }
    if ('exit' in outcome)
      return this.finishLost(describeExit(outcome.exit, this.stderrTail), interrupted, outcome.exit);
    const head = this.takeOutput();
    return {
      output: head + outcome.tail,
      failed: outcome.error,
      images: outcome.images.map((image) => ({ data: image.data, ...(image.path ? { path: image.path } : {}) })),
      ...(outcome.dropped > 0 ? { dropped: { at: head.length, chars: outcome.dropped } } : {}),
      ...(interrupted ? { interrupted } : {}),
    };
  }

  async kill(): Promise<void> {
    this.dead = true;
    await this.channel.kill(this.pid);
  }

  private takeOutput(): string {
    const output = this.pending?.chunks.join('') ?? '';
    this.pending = undefined;
    return output;
  }

  private finishLost(reason: string, interrupted: PythonRunResult['interrupted'], exit?: ProcessExit): PythonRunResult {
    const output = this.takeOutput();
    this.dead = true;
    return {
      ...emptyResult(),
      output,
      failed: true,
      ...(interrupted ? { interrupted } : {}),
      lost: { reason, ...(exit ? { exit } : {}) },
    };
  }

  private receive(line: string): void {
    const event = parseEvent(line);
    if (!event) return;
    if (event.ev === 'out') {
      const cell = this.pending;
      if (cell && (event.id === cell.id || event.id === null || event.id < cell.id)) {
        cell.chunks.push(event.data);
        cell.onOutput?.(event.data);
      } else {
        // output of background threads between cells goes to the next cell
        this.carry.push(event.data);
      }
    } else if (event.ev === 'done' && this.pending?.id === event.id) {
      this.pending.resolve(event);
    }
  }
}

function parseEvent(line: string): ReplEvent | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const parsed = ReplEventSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function emptyResult(): PythonRunResult {
  return { output: '', failed: true, images: [] };
}

function describeExit(exit: ProcessExit, stderr: string): string {
  if (exit.lost || exit.code === null)
    return 'the connection to the sandbox was lost (container or Docker engine stopped)';
  if (exit.code === 137) return 'it was killed (SIGKILL), most likely for using more memory than the sandbox allows';
  const detail = stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' | ')}` : '';
  return `it exited with code ${exit.code}${detail}`;
}
