import { useCallback, useState } from 'react';
import { ClientError } from '../../client/manus-client.js';
import './common.css';

export interface Failure {
  message: string;
  hint?: string;
}

export function failureOf(error: unknown): Failure {
  if (error instanceof ClientError) return { message: error.message, hint: error.hint };
  return { message: error instanceof Error ? error.message : String(error) };
}

/** Runs an action, tracking busy and the last failure, for forms that call the core. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure>();
  const run = useCallback(async <T,>(action: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setFailure(undefined);
    try {
      return await action();
    } catch (error) {
      setFailure(failureOf(error));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, failure, setFailure, run };
}

export function FailureText({ failure }: { failure?: Failure }) {
  if (!failure) return null;
  return (
    <p className="form-error" role="alert">
      {failure.message}
      {failure.hint ? <span className="form-hint"> {failure.hint}</span> : null}
    </p>
  );
}
