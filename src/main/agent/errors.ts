/** The run was cancelled by the person (Stop, Ctrl-C) or by a timeout of the caller. */
export class RunCancelledError extends Error {
  constructor(message = 'The run was cancelled.') {
    super(message);
    this.name = 'RunCancelledError';
  }
}

export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new RunCancelledError();
}
