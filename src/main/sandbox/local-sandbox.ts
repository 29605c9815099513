import { BashShell } from './bash-shell.js';
import { BASH_SHELL_SOURCE } from './drivers/bash-shell-source.js';
import { PYTHON_REPL_SOURCE } from './drivers/python-repl-source.js';
import { startLocalChannel } from './local-channel.js';
import { PythonRepl } from './python-repl.js';
import { stateLostNote, type Acquired, type Sandbox } from './sandbox.js';

export const LOCAL_SANDBOX_WARNING =
  'Sandbox mode is "local": Python and shell commands run directly on this computer, as your user, with no isolation ' +
  '(they start in the session workspace but can reach every file and the network). Switch sandbox.mode to "docker" to isolate them.';

/** The explicit opt-in without Docker: the same drivers as host processes, started in the workspace folder. */
export class LocalSandbox implements Sandbox {
  readonly kind = 'local';
  private python: PythonRepl | undefined;
  private shell: BashShell | undefined;
  private pythonLossReported = false;
  private shellLossReported = false;

  constructor(
    private readonly workspace: string,
    private readonly python3 = process.env.MANUS_PYTHON ?? 'python3',
  ) {}

  get workspaceInside(): string {
    return this.workspace;
  }

  async acquirePython(): Promise<Acquired<PythonRepl>> {
    if (this.python?.alive) return { driver: this.python, notes: [] };
    const notes = this.python && !this.pythonLossReported ? [stateLostNote('python', 'it stopped between calls')] : [];
    this.python = await PythonRepl.start(this.start(PYTHON_REPL_SOURCE));
    this.pythonLossReported = false;
    return { driver: this.python, notes };
  }

  async acquireShell(): Promise<Acquired<BashShell>> {
    if (this.shell?.alive) return { driver: this.shell, notes: [] };
    const notes = this.shell && !this.shellLossReported ? [stateLostNote('shell', 'it stopped between calls')] : [];
    this.shell = await BashShell.start(this.start(BASH_SHELL_SOURCE));
    this.shellLossReported = false;
    return { driver: this.shell, notes };
  }

  markLossReported(what: 'python' | 'shell'): void {
    if (what === 'python') this.pythonLossReported = true;
    else this.shellLossReported = true;
  }

  async release(): Promise<void> {}

  async dispose(): Promise<void> {
    await Promise.all([this.python?.kill(), this.shell?.kill()]);
  }

  private start(source: string): ReturnType<typeof startLocalChannel> {
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
