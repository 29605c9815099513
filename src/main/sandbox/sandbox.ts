import type { BashShell } from './bash-shell.js';
import type { PythonRepl } from './python-repl.js';
import type { QuotaNotice } from './workspace-quota.js';

export type ProgressListener = (text: string) => void;

/** A driver ready for one call, with what the caller must tell the model (e.g. that earlier state was lost). */
export interface Acquired<T> {
  driver: T;
  notes: string[];
  /** where the workspace quota watchdog stood when the call began (see quotaAfterCall) */
  quotaMark: number;
}

/** Where a session's code runs: a hardened container (docker) or, by explicit opt-in, the host (local). */
export interface Sandbox {
  readonly kind: 'docker' | 'local';
  /** the workspace as seen by code in the sandbox (/workspace, or the host folder in local mode) */
  readonly workspaceInside: string;
  acquirePython(onProgress?: ProgressListener): Promise<Acquired<PythonRepl>>;
  acquireShell(onProgress?: ProgressListener): Promise<Acquired<BashShell>>;
  /** the call that saw a driver die told the model already; the next acquire need not say it again */
  markLossReported(what: 'python' | 'shell'): void;
  /** measures the workspace once more at the end of a call: what the call that acquired with `quotaMark` must tell */
  quotaAfterCall(quotaMark: number): Promise<QuotaNotice | undefined>;
  /** the caller is done with the driver for now (restarts the idle clock) */
  release(): Promise<void>;
  /** the session ended for now: stop processes (a docker container is stopped, kept for the session's next turn) */
  dispose(): Promise<void>;
}

/** What the model reads when an interpreter or shell it relied on is gone. */
export function stateLostNote(what: 'python' | 'shell', why: string): string {
  return what === 'python'
    ? `[The previous Python interpreter is gone (${why}). This call runs in a fresh one: earlier variables, imports and open files were lost; files in the workspace are kept.]`
    : `[The previous shell is gone (${why}). This command runs in a fresh shell: the working directory, variables and background jobs were lost; files in the workspace are kept.]`;
}
