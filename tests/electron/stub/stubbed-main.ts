import { fork, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { ensureAppBuilt } from '../../e2e/support/renderer-build.js';

/** One call the main process made on a stubbed API (its arguments as plain values; windows as `window#N`). */
export interface StubCall {
  call: string;
  args: unknown[];
}

export interface StubbedMainOptions {
  dataDir: string;
  /** app.isPackaged */
  packaged?: boolean;
  env?: Record<string, string | undefined>;
}

const MAIN_BUNDLE = resolve('out/main/index.js');
const REGISTER = resolve('tests/electron/stub/register.mjs');

/** The main process, preload and page as `npm run dist` builds them, built when stale (shared with the e2e files). */
export function buildMainProcess(): void {
  ensureAppBuilt();
}

/**
 * The built main process (out/main/index.js) running under Node with `electron` mapped to the recording stand-in:
 * what it calls, in order, and commands to emit what Electron would.
 */
export class StubbedMain {
  readonly calls: StubCall[] = [];
  readonly output: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();
  private nextId = 1;

  constructor(options: StubbedMainOptions) {
    const env: Record<string, string | undefined> = {
      ...process.env,
      MANUS_DATA_DIR: options.dataDir,
      // no engine: the app's start-up sweep of orphan sandboxes must not touch the shared Docker
      DOCKER_HOST: 'unix:///nonexistent/manus-stub-docker.sock',
      ELECTRON_STUB_CHANNEL: 'ipc',
      ELECTRON_STUB_PACKAGED: options.packaged ? '1' : '0',
      ...options.env,
    };
    // a variable set to undefined is left out (fork would pass the string "undefined")
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
    this.child = fork(MAIN_BUNDLE, [], {
      execArgv: ['--import', REGISTER],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      env,
    });
    this.child.stdout!.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    this.child.stderr!.on('data', (chunk: Buffer) => this.output.push(chunk.toString()));
    this.child.on('message', (message: StubCall) => {
      this.calls.push(message);
      for (const wake of this.waiters) wake();
    });
    this.exited = new Promise((done) => this.child.on('exit', (code) => done(code)));
  }

  /** the calls named `name`, in order */
  callsTo(name: string): StubCall[] {
    return this.calls.filter((entry) => entry.call === name);
  }

  /** where the first call named `name` stands in the sequence (-1 if none) */
  indexOf(name: string): number {
    return this.calls.findIndex((entry) => entry.call === name);
  }

  /** Waits until a recorded call satisfies `found` (or the process ends, which fails with its output). */
  async waitFor(found: (calls: StubCall[]) => StubCall | undefined | false, timeoutMs = 60_000): Promise<StubCall> {
    let exited = false;
    void this.exited.then(() => {
      exited = true;
      for (const wake of this.waiters) wake();
    });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const hit = found(this.calls);
      if (hit) return hit;
      if (exited || Date.now() > deadline) {
        throw new Error(
          `${exited ? 'the main process ended' : 'timed out'} before the awaited call; calls: ` +
            `${this.calls.map((entry) => entry.call).join(', ')}\noutput:\n${this.output.join('')}`,
        );
      }
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, 200);
        this.waiters.add(() => {
          clearTimeout(timer);
          wake();
        });
      });
      this.waiters.clear();
    }
  }

  waitForCall(name: string, where: (args: unknown[]) => boolean = () => true): Promise<StubCall> {
    return this.waitFor((calls) => calls.find((entry) => entry.call === name && where(entry.args)));
  }

  /** Sends a command to the stand-in (commands.mjs) and waits until it has run; gives what it returned. */
  async command(command: string, fields: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    this.child.send({ command, id, ...fields });
    const done = await this.waitFor((calls) =>
      calls.find((entry) => (entry.call === 'stub.done' || entry.call === 'stub.failed') && entry.args[0] === id),
    );
    if (done.call === 'stub.failed') throw new Error(String(done.args[1]));
    return done.args[1];
  }

  /** the first window the app opened, once it has */
  async mainWindow(): Promise<string> {
    const created = await this.waitForCall('new BrowserWindow');
    return created.args[0] as string;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }
}
