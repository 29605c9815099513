/** An error as shown to the person: a code, a one-line message and, when known, how to fix it. */
export interface DescribedError {
  code: string;
  message: string;
  hint?: string;
}

export function describeError(error: unknown): DescribedError {
  if (error instanceof Error) {
    const coded = error as Error & { code?: unknown; hint?: unknown };
    return {
      code: typeof coded.code === 'string' ? coded.code : 'run_failed',
      message: error.message,
      ...(typeof coded.hint === 'string' ? { hint: coded.hint } : {}),
    };
  }
  return { code: 'run_failed', message: String(error) };
}
