import type { MeterReading } from './workspace-meter.js';

/** how often the workspace is measured while a call runs: a round trip to the helper, so it can be often */
const BUSY_INTERVAL_MS = 200;
/** between calls (background jobs may still write) */
const IDLE_INTERVAL_MS = 5_000;
/** a big workspace is measured less often: the next measurement waits at least this many times the last one's length */
const MEASURE_COST_FACTOR = 4;
/** the longest a new container's first call waits for the workspace's first measurement */
const BASELINE_WAIT_MS = 3_000;
/** a call's result waits for the measurement at its end only when measuring is this quick; else it is told next call */
const AFTER_CALL_WAIT_MS = 500;
const MIB = 1024 * 1024;

/** What the model is told about the workspace quota after a call. */
export interface QuotaNotice {
  /** the workspace grew past its quota, so every sandbox process was stopped */
  stopped: boolean;
  text: string;
}

export interface QuotaWatchOptions {
  quotaMb: number;
  /**
   * the workspace's size in bytes and how long measuring took, or that the meter stopped answering; undefined when it
   * could not be measured (container gone)
   */
  measure(): Promise<MeterReading | undefined>;
  /** stops every process the sandbox runs, so the writer stops wherever it hides (background job, daemon) */
  stopAll(): Promise<void>;
  /** releases what measuring holds (its process in the container) */
  close(): void;
  /** a call is running: measure often */
  busy(): boolean;
  onBreach(notice: QuotaNotice): void;
}

/**
 * The engine cannot limit a bind mount, so this watchdog does: it measures the workspace several times a second while a
 * call runs (less often between calls), and when it has grown while at or over its quota, stops every sandbox
 * process. A workspace already over its quota (a large folder the user chose) only stops what makes it grow, so the
 * model can still list and delete files. A meter that stops answering (sandbox code can stop what runs in the sandbox)
 * is a breach too: nothing bounds the writes while it is silent.
 */
export class WorkspaceQuotaWatch {
  private lastBytes: number | undefined;
  /** how long the last measurement took */
  private lastMeasureMs = 0;
  private checking: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: QuotaWatchOptions) {}

  /** Takes the first measurement (what later ones are compared with), waiting for it a little, and starts measuring. */
  async start(): Promise<void> {
    const first = this.check();
    this.schedule();
    // a huge folder is not worth holding the first call for: its baseline lands a bit later
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([first, new Promise((resolve) => (timer = setTimeout(resolve, BASELINE_WAIT_MS)))]);
    clearTimeout(timer);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.options.close();
  }

  /** A call began: the next measurement comes at the busy pace, not after the idle wait. */
  hurry(): void {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.schedule();
  }

  /** One measurement now; one at a time. */
  check(): Promise<void> {
    const next = this.checking.then(() => this.measureAndEnforce());
    this.checking = next.catch(() => undefined);
    return next;
  }

  /**
   * The measurement at a call's end (a fast writer may finish between two ticks), awaited when measuring is quick; a
   * big workspace is measured in the background and a breach found then is told to the next call.
   */
  async checkAfterCall(): Promise<void> {
    const check = this.check();
    if (this.lastMeasureMs <= AFTER_CALL_WAIT_MS) await check;
  }

  /** The note for a workspace that is at or over its quota without growing (nothing was stopped). */
  overQuota(): QuotaNotice | undefined {
    if (this.lastBytes === undefined || this.lastBytes < this.quotaBytes) return undefined;
    return {
      stopped: false,
      text:
        `The workspace holds ${megabytes(this.lastBytes)} MB, at or over its quota of ${this.options.quotaMb} MB: ` +
        'delete files in /workspace; anything that makes it grow stops every sandbox process.',
    };
  }

  private get quotaBytes(): number {
    return this.options.quotaMb * MIB;
  }

  private schedule(): void {
    if (this.stopped) return;
    const interval = this.options.busy() ? BUSY_INTERVAL_MS : IDLE_INTERVAL_MS;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.check().then(() => this.schedule());
      },
      Math.max(interval, this.lastMeasureMs * MEASURE_COST_FACTOR),
    );
    this.timer.unref();
  }

  private async measureAndEnforce(): Promise<void> {
    if (this.stopped) return;
    const measured = await this.options.measure();
    if (measured === undefined || this.stopped) return;
    if (measured.kind === 'silent') return this.breach(silentMeterText(measured.why));
    const { bytes } = measured;
    this.lastMeasureMs = measured.elapsedMs;
    const grew = this.lastBytes !== undefined && bytes > this.lastBytes;
    this.lastBytes = bytes;
    if (!grew || bytes < this.quotaBytes) return;
    await this.breach(
      `The workspace went over its disk quota: it holds ${megabytes(bytes)} MB and the quota is ` +
        `${this.options.quotaMb} MB. Every process in the sandbox was stopped to stop the writing (Python variables, ` +
        'shell state and background jobs were reset). Delete files in /workspace to get back under the quota; the ' +
        'sandbox then works as before. (The quota is the setting sandbox.workspaceQuotaMb.)',
    );
  }

  private async breach(text: string): Promise<void> {
    await this.options.stopAll();
    this.options.onBreach({ stopped: true, text });
  }
}

function silentMeterText(why: string): string {
  return (
    `The workspace's disk quota could not be checked: its meter in the sandbox stopped answering (${why}), as when ` +
    'sandbox code stops or kills it. Every process in the sandbox was stopped, since nothing bounded the writing ' +
    '(Python variables, shell state and background jobs were reset); the next call measures again. Do not signal ' +
    'processes you did not start. (The quota is the setting sandbox.workspaceQuotaMb.)'
  );
}

function megabytes(bytes: number): string {
  return (bytes / MIB).toFixed(1);
}
