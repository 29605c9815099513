import { redactText } from '../store/redact.js';

/** An error as shown to the person: a code, a one-line message and, when known, how to fix it. */
export interface DescribedError {
  code: string;
  message: string;
  hint?: string;
}

/** Key-shaped strings are blanked out: the message may end up in a plan row or a notice, not only in events. */
export function describeError(error: unknown): DescribedError {
  if (error instanceof Error) {
    const coded = error as Error & { code?: unknown; hint?: unknown };
    return {
      code: typeof coded.code === 'string' ? coded.code : 'run_failed',
      message: redactText(error.message),
      ...(typeof coded.hint === 'string' ? { hint: coded.hint } : {}),
    };
  }
  return { code: 'run_failed', message: redactText(String(error)) };
}
