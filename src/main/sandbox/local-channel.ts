import { spawn } from 'node:child_process';
import { LineSplitter, type ProcessChannel, type ProcessExit } from './process-channel.js';
import { localDriverEnvironment } from './local-environment.js';

export interface LocalProcessSpec {
  command: string;
  args: string[];
  cwd: string;
  /** the driver's own variables; of the app's environment it gets only `localDriverEnvironment`'s short list */
  env: Record<string, string>;
}

/** A driver process on the host (sandbox mode `local`). */
export function startLocalChannel(spec: LocalProcessSpec): ProcessChannel {
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    // the agent's code must not read the app's API keys and tokens from its environment
    env: localDriverEnvironment(spec.env),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lineListeners: ((line: string) => void)[] = [];
  const stderrListeners: ((text: string) => void)[] = [];
  const splitter = new LineSplitter((line) => lineListeners.forEach((listener) => listener(line)));
  child.stdout.setEncoding('utf8').on('data', (text: string) => splitter.push(text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => stderrListeners.forEach((listener) => listener(text)));
  child.stdin.on('error', () => undefined);
  let ended = false;
  const exited = new Promise<ProcessExit>((resolve) => {
    child.on('error', () => {
      ended = true;
      resolve({ code: null, lost: true });
    });
    child.on('close', (code, signal) => {
      ended = true;
      resolve({ code: code ?? (signal === 'SIGKILL' ? 137 : null), lost: false });
    });
  });
  return {
    write: (data) => {
      if (child.stdin.writable) child.stdin.write(data);
    },
    onLine: (listener) => lineListeners.push(listener),
    onStderr: (listener) => stderrListeners.push(listener),
    get ended() {
      return ended;
    },
    exited,
    kill: async (pid) => {
      if (pid !== undefined) killGroup(pid);
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** SIGKILL to the process group `pid` leads: the driver's command and every child it started. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is already gone
  }
}
