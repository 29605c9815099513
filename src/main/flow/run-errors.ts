import { MessageParamsSchema, type MessageParams } from '../../shared/events.js';
import { redactText } from '../store/redact.js';

/** An error as shown to the person: a code, a one-line message, how to fix it when known, and what fills in its translation. */
export interface DescribedError {
  code: string;
  message: string;
  hint?: string;
  params?: MessageParams;
}

/** Key-shaped strings are blanked out: the message may end up in a plan row or a notice, not only in events. */
export function describeError(error: unknown): DescribedError {
  if (error instanceof Error) {
    const coded = error as Error & { code?: unknown; hint?: unknown; params?: unknown };
    const params = MessageParamsSchema.safeParse(coded.params);
    return {
      code: typeof coded.code === 'string' ? coded.code : 'run_failed',
      message: redactText(error.message),
      ...(typeof coded.hint === 'string' ? { hint: coded.hint } : {}),
      ...(params.success && Object.keys(params.data).length > 0 ? { params: params.data } : {}),
    };
  }
  return { code: 'run_failed', message: redactText(String(error)) };
}
