import { mkdir } from 'node:fs/promises';
import { BashShell } from './bash-shell.js';
import { BASH_SHELL_SOURCE, PYTHON_REPL_SOURCE } from './drivers/sources.js';
import { startLocalChannel } from './local-channel.js';
import { PythonRepl } from './python-repl.js';
import { stateLostNote, type Acquired, type Sandbox } from './sandbox.js';
import type { QuotaNotice } from './workspace-quota.js';

export const LOCAL_SANDBOX_WARNING =
  'Sandbox mode is "local": Python and shell commands run directly on this computer, as your user, with no isolation ' +
  '(they start in the session workspace but can reach every file and the network). Switch sandbox.mode to "docker" to isolate them.';

/** The explicit opt-in without Docker: the same drivers as host processes, started in the workspace folder. */
export class LocalSandbox implements Sandbox {
  readonly kind = 'local';
  private python: PythonRepl | undefined;
  private shell: BashShell | undefined;
  private readonly lossReported = { python: false, shell: false };
  private starting: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly workspace: string,
    private readonly python3 = process.env.MANUS_PYTHON ?? 'python3',
  ) {}

  get workspaceInside(): string {
    return this.workspace;
  }

  acquirePython(): Promise<Acquired<PythonRepl>> {
    return this.acquire(
      'python',
      () => this.python,
      async () => {
        this.python = await PythonRepl.start(await this.start(PYTHON_REPL_SOURCE));
        return this.python;
      },
    );
  }

  acquireShell(): Promise<Acquired<BashShell>> {
    return this.acquire(
      'shell',
      () => this.shell,
      async () => {
        this.shell = await BashShell.start(await this.start(BASH_SHELL_SOURCE));
        return this.shell;
      },
    );
  }

  /** The live driver or a new one; concurrent callers share one start. */
  private acquire<T extends { alive: boolean }>(
    kind: 'python' | 'shell',
    current: () => T | undefined,
    start: () => Promise<T>,
  ): Promise<Acquired<T>> {
    const next = this.starting.then(async () => {
      const previous = current();
      if (previous?.alive) return { driver: previous, notes: [], quotaMark: 0 };
      const notes = previous && !this.lossReported[kind] ? [stateLostNote(kind, 'it stopped between calls')] : [];
      const driver = await start();
      this.lossReported[kind] = false;
      return { driver, notes, quotaMark: 0 };
    });
    this.starting = next.catch(() => undefined);
    return next;
  }

  markLossReported(what: 'python' | 'shell'): void {
    this.lossReported[what] = true;
  }

  /** no quota here: code on the host can write anywhere, so a limit on the workspace would promise nothing */
  quotaAfterCall(): Promise<QuotaNotice | undefined> {
    return Promise.resolve(undefined);
  }

  async release(): Promise<void> {}

  async dispose(): Promise<void> {
    await Promise.all([this.python?.kill(), this.shell?.kill()]);
  }

  private async start(source: string): Promise<ReturnType<typeof startLocalChannel>> {
    await mkdir(this.workspace, { recursive: true });
    return startLocalChannel({
      command: this.python3,
      args: ['-u', '-c', source],
      cwd: this.workspace,
      env: {
        MANUS_WORKSPACE: this.workspace,
        MPLBACKEND: 'Agg',
        PYTHONUNBUFFERED: '1',
        TERM: 'dumb',
        PAGER: 'cat',
        GIT_PAGER: 'cat',
      },
    });
  }
}
