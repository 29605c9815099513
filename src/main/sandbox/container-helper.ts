import type Docker from 'dockerode';
import { sandboxEnv } from './container-spec.js';
import { CONTAINER_WORKSPACE } from '../workspace/sandbox-path.js';
import { startDockerChannel } from './docker-channel.js';
import type { ProcessChannel } from './process-channel.js';

export interface ContainerHelperSpec {
  /** the Python program: reads one request line, writes one answer line, for as long as its stdin is open */
  source: string;
  /** its arguments (`sys.argv[1:]`) */
  args?: readonly string[];
  /** what it is called in errors ("the workspace lister") */
  name: string;
  /** the longest one answer may take before the helper is given up and a new one started */
  timeoutMs: number;
}

export interface HelperAnswer {
  line: string;
  /** from the question written to the answer read: the helper's own work, not its start */
  roundTripMs: number;
}

interface RunningHelper {
  containerId: string;
  channel: ProcessChannel;
  /** waiting askers, oldest first; undefined: the helper died before answering */
  replies: ((line: string | undefined) => void)[];
}

/**
 * A small program kept running in the sandbox's container as the sandbox user (listing or measuring the workspace):
 * a question costs one line written and one read on its attached stream, not a new `docker exec` (tens of ms). A new
 * one starts when the container changed or the old one died (the quota's kill of every sandbox process takes it).
 */
export class ContainerHelper {
  private running: RunningHelper | undefined;

  constructor(
    private readonly docker: Docker,
    private readonly user: string,
    private readonly spec: ContainerHelperSpec,
  ) {}

  /** The answer line to `request` (which ends with a newline); rejects on timeout, cancel, or the helper's death. */
  async ask(container: Docker.Container, request: string, signal?: AbortSignal): Promise<HelperAnswer> {
    const running = await this.ready(container);
    const { name, timeoutMs } = this.spec;
    const sent = Date.now();
    return new Promise<HelperAnswer>((resolve, reject) => {
      const settle = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const giveUp = (why: string): void => {
        settle();
        this.stop();
        reject(new Error(why));
      };
      const timer = setTimeout(() => giveUp(`${name} gave no answer within ${timeoutMs} ms`), timeoutMs);
      const onAbort = (): void => giveUp(`${name} was cancelled`);
      signal?.addEventListener('abort', onAbort, { once: true });
      running.replies.push((line) => {
        settle();
        if (line === undefined) reject(new Error(`${name} stopped (container or engine gone)`));
        else resolve({ line, roundTripMs: Date.now() - sent });
      });
      running.channel.write(request);
    });
  }

  stop(): void {
    const running = this.running;
    this.running = undefined;
    void running?.channel.kill().catch(() => undefined);
  }

  private async ready(container: Docker.Container): Promise<RunningHelper> {
    if (this.running && this.running.containerId === container.id && !this.running.channel.ended) return this.running;
    this.stop();
    const channel = await startDockerChannel(this.docker, container, {
      cmd: ['python3', '-u', '-c', this.spec.source, ...(this.spec.args ?? [])],
      user: this.user,
      env: sandboxEnv(),
      workingDir: CONTAINER_WORKSPACE,
    });
    const running: RunningHelper = { containerId: container.id, channel, replies: [] };
    channel.onLine((line) => running.replies.shift()?.(line));
    void channel.exited.then(() => {
      for (const reply of running.replies.splice(0)) reply(undefined);
      if (this.running === running) this.running = undefined;
    });
    this.running = running;
    return running;
  }
}
