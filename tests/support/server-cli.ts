import type { ChildProcess } from 'node:child_process';
import { spawnCli } from './cli.js';

const START_TIMEOUT_MS = 30_000;
/** a server that ignores SIGTERM this long is killed */
const STOP_TIMEOUT_MS = 5_000;

export interface ServerCli {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** SIGTERM (SIGKILL if it lingers), and the exit code once it is gone */
  stop(): Promise<number | null>;
}

/**
 * Starts a long-running `manus` command (a2a, mcp-server, serve) with the clean environment of `spawnCli` plus `env`,
 * and waits until its output matches `ready`.
 */
export async function startServerCli(
  args: string[],
  env: Record<string, string | undefined>,
  ready: RegExp,
): Promise<ServerCli> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`manus ${args.join(' ')} did not start:\n${stdout}\n${stderr}`));
    }, START_TIMEOUT_MS);
    const check = () => {
      if (!ready.test(stdout + stderr)) return;
      clearTimeout(timer);
      resolve();
    };
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      check();
    });
    child.stderr?.on('data', (chunk) => {
      stderr += chunk;
      check();
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`manus ${args.join(' ')} exited ${code}:\n${stdout}\n${stderr}`));
    });
  });
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const lingering = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        void exited.then(() => clearTimeout(lingering));
      }
      return exited;
    },
  };
}
