import { LlmError } from './errors.js';

export interface RetryTiming {
  /** delay after the first failed attempt; doubles each time */
  baseDelayMs: number;
  maxDelayMs: number;
  /** a Retry-After longer than this is not waited for: the error is reported instead */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_TIMING: RetryTiming = { baseDelayMs: 1_000, maxDelayMs: 30_000, maxRetryAfterMs: 120_000 };

export interface RetryOptions {
  maxAttempts: number;
  signal?: AbortSignal;
  timing?: Partial<RetryTiming>;
  /** called before each wait, with the error that caused it */
  onRetry?: (error: LlmError, attempt: number, delayMs: number) => void;
  random?: () => number;
}

export function cancelledError(): LlmError {
  return new LlmError('cancelled', 'request cancelled');
}

/** Exponential backoff with jitter: base·2^(n-1), capped, scaled into [50%, 100%] so clients spread out. */
export function backoffDelay(failedAttempts: number, timing: RetryTiming, random: () => number = Math.random): number {
  const exponential = Math.min(timing.maxDelayMs, timing.baseDelayMs * 2 ** (failedAttempts - 1));
  return Math.round(exponential * (0.5 + random() * 0.5));
}

/** Resolves after `ms`; rejects with a cancelled LlmError as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancelledError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The wait before the next attempt: what the server asked for when it did, else backoff. */
export function retryDelay(
  error: LlmError,
  failedAttempts: number,
  timing: RetryTiming,
  random?: () => number,
): number {
  if (error.retryAfterMs !== undefined) return error.retryAfterMs;
  return backoffDelay(failedAttempts, timing, random);
}

/**
 * Run `attempt` until it succeeds, the error is not retryable, or maxAttempts is reached.
 * The final error says how many attempts were made.
 */
export async function withRetry<T>(attempt: (attemptNumber: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const timing = { ...DEFAULT_RETRY_TIMING, ...options.timing };
  const maxAttempts = Math.max(1, Math.min(6, options.maxAttempts));
  for (let attemptNumber = 1; ; attemptNumber++) {
    if (options.signal?.aborted) throw cancelledError();
    try {
      return await attempt(attemptNumber);
    } catch (caught) {
      if (!(caught instanceof LlmError)) throw caught;
      if (caught.code === 'cancelled') throw caught;
      if (!caught.retryable || attemptNumber >= maxAttempts) throw caught.afterAttempts(attemptNumber);
      const delayMs = retryDelay(caught, attemptNumber, timing, options.random);
      if (delayMs > timing.maxRetryAfterMs) {
        const seconds = Math.ceil(delayMs / 1000);
        throw new LlmError(caught.code, `${caught.message} (the provider asked to wait ${seconds} s)`, {
          status: caught.status,
          retryAfterMs: delayMs,
          cause: caught.cause,
        }).afterAttempts(attemptNumber);
      }
      options.onRetry?.(caught, attemptNumber, delayMs);
      await sleep(delayMs, options.signal);
    }
  }
}
