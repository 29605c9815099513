import type Docker from 'dockerode';
import { z } from 'zod';
import { sandboxEnv, CONTAINER_WORKSPACE } from './container-spec.js';
import { startDockerChannel } from './docker-channel.js';
import { WORKSPACE_USAGE_SOURCE } from './drivers/workspace-usage-source.js';
import type { ProcessChannel } from './process-channel.js';

/** a measurement of a huge workspace may take this long before it is given up */
const MEASURE_TIMEOUT_MS = 60_000;

const WorkspaceUsageSchema = z.union([
  z.object({ bytes: z.number().int().nonnegative() }),
  z.object({ error: z.string() }),
]);

export interface WorkspaceMeasurement {
  bytes: number;
  elapsedMs: number;
}

/**
 * Measures the workspace through one long-lived process in the container (WORKSPACE_USAGE_SOURCE), so a measurement
 * costs a round trip on an open stream and the walk itself, not a new `docker exec` (tens of ms) after every call.
 * The process is started on first use and again after it died (the quota's kill of every sandbox process takes it).
 */
export class WorkspaceMeter {
  private channel: Promise<ProcessChannel> | undefined;
  private waiting: ((line: string | undefined) => void) | undefined;
  private closed = false;

  constructor(
    private readonly docker: Docker,
    private readonly container: Docker.Container,
    private readonly user: string,
  ) {}

  /**
   * The workspace's size in bytes and how long the walk took (the round trip, not the process's start); undefined
   * when it could not be measured (container gone, timeout).
   */
  async measure(): Promise<WorkspaceMeasurement | undefined> {
    if (this.closed) return undefined;
    let channel: ProcessChannel;
    try {
      channel = await this.open();
    } catch {
      this.channel = undefined;
      return undefined;
    }
    const answer = new Promise<string | undefined>((resolve) => (this.waiting = resolve));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<undefined>(
      (resolve) => (timer = setTimeout(() => resolve(undefined), MEASURE_TIMEOUT_MS)),
    );
    const sent = Date.now();
    channel.write('\n');
    const line = await Promise.race([answer, timedOut]);
    const elapsedMs = Date.now() - sent;
    clearTimeout(timer);
    this.waiting = undefined;
    if (line === undefined) {
      // no answer: the process died or hangs; the next measurement starts a new one
      this.drop(channel);
      return undefined;
    }
    try {
      const usage = WorkspaceUsageSchema.parse(JSON.parse(line));
      return 'bytes' in usage ? { bytes: usage.bytes, elapsedMs } : undefined;
    } catch {
      return undefined;
    }
  }

  close(): void {
    this.closed = true;
    const channel = this.channel;
    this.channel = undefined;
    void channel?.then((open) => open.kill()).catch(() => undefined);
  }

  private open(): Promise<ProcessChannel> {
    if (!this.channel) {
      const started = startDockerChannel(this.docker, this.container, {
        cmd: ['python3', '-u', '-c', WORKSPACE_USAGE_SOURCE],
        user: this.user,
        env: sandboxEnv(),
        workingDir: CONTAINER_WORKSPACE,
      });
      this.channel = started;
      void started.then(
        (channel) => {
          channel.onLine((line) => this.waiting?.(line));
          void channel.exited.then(() => {
            this.waiting?.(undefined);
            if (this.channel === started) this.channel = undefined;
          });
        },
        () => undefined,
      );
    }
    return this.channel;
  }

  private drop(channel: ProcessChannel): void {
    this.channel = undefined;
    void channel.kill().catch(() => undefined);
  }
}
