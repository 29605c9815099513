import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { OpenDatabaseOptions } from '../database.js';
import {
  ANSWERED_BATCHES,
  CLOSED,
  PROGRESS_SLOTS,
  WriterAnswerSchema,
  type WriterAnswer,
  type WriterRequest,
} from './event-writer-messages.js';

/** Longer than SQLite's busy timeout (another process holding the write lock), so that wait ends first. */
export const WRITER_ANSWER_TIMEOUT_MS = 15_000;

const WORKER_ENTRY = 'event-writer-worker';

/**
 * The worker's entry, where each build puts it: beside the bundle holding this code (the CLI's `.mjs` chunks,
 * Electron's main `.js`, one folder up from a chunk) or the source `.ts` itself under tsx and vitest.
 */
function workerEntry(): URL | undefined {
  for (const folder of ['./', '../']) {
    for (const extension of ['.mjs', '.js', '.ts']) {
      const url = new URL(`${folder}${WORKER_ENTRY}${extension}`, import.meta.url);
      if (existsSync(fileURLToPath(url))) return url;
    }
  }
  return undefined;
}

/** tsx's ESM loader API (its `import` export: the `require` one registers CommonJS only), as a file URL */
function tsxEsmApi(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return pathToFileURL(join(dirname(manifestPath), manifest.exports['./esm/api']!.import.default)).href;
}

/** A worker for the entry; a TypeScript one (run from source) gets tsx's loader first. */
function spawn(entry: URL, workerData: unknown, transferList: MessagePort[]): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData, transferList });
  const boot = `import(${JSON.stringify(tsxEsmApi())}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true, workerData, transferList });
}

/** How a posted batch ended: the seq of each row when some moved (another process took theirs), or why it failed. */
export type BatchOutcome = { written: true; seqs?: number[] } | { written: false; error: Error };

/**
 * A thread with its own connection to the database that writes the store's event batches while the main thread
 * goes on, so a busy run's validation and redaction and SQLite's writing use two cores. Batches are written in the
 * order posted. `settle` waits (blocking, bounded) for every posted batch, so a read or a write of the main
 * connection that follows sees them; answers arrive by message otherwise. Until it has opened the database, or
 * when it cannot, `ready` is false and the store writes on its own connection.
 */
export class EventWriterThread {
  private readonly worker: Worker;
  private readonly channel: MessagePort;
  private readonly progress = new Int32Array(new SharedArrayBuffer(PROGRESS_SLOTS * Int32Array.BYTES_PER_ELEMENT));
  private readonly pending = new Map<number, (outcome: BatchOutcome) => void>();
  private posted = 0;
  private state: 'starting' | 'ready' | 'stopped' = 'starting';

  private constructor(entry: URL, file: string, options: OpenDatabaseOptions, onUnavailable: (reason: string) => void) {
    const { port1, port2 } = new MessageChannel();
    this.channel = port1;
    const workerData = { file, nativeBinding: options.nativeBinding, progress: this.progress.buffer, port: port2 };
    this.worker = spawn(entry, workerData, [port2]);
    // requests go and answers come over one channel; an idle writer does not keep the process alive, one with
    // batches in flight does (see write)
    this.channel.on('message', (data: unknown) => this.take(data, onUnavailable));
    this.worker.unref();
    this.channel.unref();
    const stop = (reason: string) => {
      if (this.state === 'stopped') return;
      const wasReady = this.state === 'ready';
      this.state = 'stopped';
      this.failPending(new Error(`The event writer thread stopped: ${reason}`));
      if (!wasReady) onUnavailable(reason);
    };
    this.worker.on('error', (error) => stop(error.message));
    this.worker.on('exit', (code) => stop(`it exited with code ${code}`));
  }

  /** Starts the thread; undefined (and `onUnavailable` told) when this build has no worker entry. */
  static start(
    file: string,
    options: OpenDatabaseOptions,
    onUnavailable: (reason: string) => void,
  ): EventWriterThread | undefined {
    const entry = workerEntry();
    if (entry) return new EventWriterThread(entry, file, options, onUnavailable);
    onUnavailable(`this build has no ${WORKER_ENTRY} entry`);
    return undefined;
  }

  get ready(): boolean {
    return this.state === 'ready';
  }

  /** batches posted and not answered yet */
  get inFlight(): number {
    return this.pending.size;
  }

  /**
   * Posts a batch of rows as `packRows` packs them (call only when ready); `done` runs once it was written (and its
   * searchable rows queued for the index) or failed, in posting order.
   */
  write(packedRows: unknown[], done: (outcome: BatchOutcome) => void): void {
    const id = this.posted;
    this.posted += 1;
    this.pending.set(id, done);
    this.channel.ref();
    this.post({ kind: 'write', id, packedRows });
  }

  /** Blocks until every posted batch is answered, and takes the answers (bounded: WRITER_ANSWER_TIMEOUT_MS). */
  settle(): void {
    if (this.pending.size === 0) return;
    const giveUpAt = Date.now() + WRITER_ANSWER_TIMEOUT_MS;
    for (;;) {
      for (let message = receiveMessageOnPort(this.channel); message; message = receiveMessageOnPort(this.channel)) {
        this.take(message.message, () => undefined);
      }
      if (this.pending.size === 0 || this.state === 'stopped') break;
      const answered = Atomics.load(this.progress, ANSWERED_BATCHES);
      const left = giveUpAt - Date.now();
      if (left <= 0) {
        this.state = 'stopped';
        this.failPending(new Error(`The event writer thread did not answer within ${WRITER_ANSWER_TIMEOUT_MS} ms`));
        void this.worker.terminate();
        break;
      }
      if (answered < this.posted) Atomics.wait(this.progress, ANSWERED_BATCHES, answered, left);
    }
  }

  /** Settles, then closes the thread's connection before returning (the main connection, closed last, checkpoints). */
  close(): void {
    this.settle();
    if (this.state === 'stopped') return;
    const wasStarting = this.state === 'starting';
    this.state = 'stopped';
    this.post({ kind: 'close' });
    // a thread still starting opens its connection before it reads the request, and closes it then
    if (!wasStarting) Atomics.wait(this.progress, CLOSED, 0, WRITER_ANSWER_TIMEOUT_MS);
    this.channel.close();
    void this.worker.terminate();
  }

  private post(request: WriterRequest): void {
    this.channel.postMessage(request);
  }

  private take(data: unknown, onUnavailable: (reason: string) => void): void {
    const parsed = WriterAnswerSchema.safeParse(data);
    if (!parsed.success) {
      // not an answer it can give: nothing it says can be trusted any more, and the store writes on its own
      this.state = 'stopped';
      this.failPending(new Error(`The event writer thread answered something unknown: ${parsed.error.message}`));
      void this.worker.terminate();
      return;
    }
    const answer: WriterAnswer = parsed.data;
    if (answer.kind === 'ready') {
      if (this.state === 'starting') this.state = 'ready';
      return;
    }
    if (answer.kind === 'unavailable') {
      this.state = 'stopped';
      onUnavailable(answer.message);
      return;
    }
    const done = this.pending.get(answer.id);
    if (!done) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.channel.unref();
    done(
      answer.kind === 'written'
        ? { written: true, seqs: answer.seqs }
        : { written: false, error: new Error(answer.message) },
    );
  }

  private failPending(error: Error): void {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const done of pending) done({ written: false, error });
  }
}
