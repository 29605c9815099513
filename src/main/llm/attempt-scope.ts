import { LlmError, toLlmError } from './errors.js';

/**
 * One HTTP attempt: aborted when the caller's signal aborts or when nothing arrives for `idleTimeoutMs`
 * (reset by `touch()` on every streamed chunk, so long replies are not cut while they flow).
 */
export class AttemptScope {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly stopWaiting: Promise<never>;
  private reason: 'cancelled' | 'timeout' | undefined;
  private readonly onCallerAbort = () => this.abort('cancelled');

  constructor(
    private readonly callerSignal: AbortSignal | undefined,
    private readonly idleTimeoutMs: number,
    private readonly model: string,
    /** blanked out of the server's error text */
    private readonly apiKey?: string,
  ) {
    this.stopWaiting = new Promise<never>((_, reject) => {
      this.controller.signal.addEventListener('abort', () => reject(this.abortError()), { once: true });
    });
    // the race below may never be awaited when the attempt ends normally
    this.stopWaiting.catch(() => undefined);
    if (callerSignal?.aborted) this.abort('cancelled');
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.touch();
  }

  /** The signal to hand to the SDK: aborting it stops the HTTP request at once. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Progress arrived: restart the idle timer. */
  readonly touch = (): void => {
    if (this.reason) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.abort('timeout'), this.idleTimeoutMs);
  };

  /** Settle with `work`, or reject as soon as the attempt is cancelled or times out. */
  race<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return Promise.race([work, this.stopWaiting]);
  }

  /** The LlmError for whatever ended the attempt: our own abort reason wins over the SDK's error. */
  explain(error: unknown): LlmError {
    if (this.reason) return this.abortError();
    return toLlmError(error, this.model, this.apiKey);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
  }

  private abort(reason: 'cancelled' | 'timeout'): void {
    if (this.reason) return;
    this.reason = reason;
    clearTimeout(this.timer);
    this.controller.abort();
  }

  private abortError(): LlmError {
    return this.reason === 'timeout'
      ? new LlmError('timeout', `model ${this.model} sent nothing for ${this.idleTimeoutMs} ms`)
      : new LlmError('cancelled', 'request cancelled');
  }
}
