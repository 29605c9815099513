import type Docker from 'dockerode';
import { z } from 'zod';
import { ContainerHelper } from './container-helper.js';
import { WORKSPACE_USAGE_SOURCE } from './drivers/sources.js';

/** a measurement of a huge workspace may take this long before it is given up */
const MEASURE_TIMEOUT_MS = 60_000;

const WorkspaceUsageSchema = z.union([
  z.object({ bytes: z.number().int().nonnegative() }),
  z.object({ error: z.string() }),
]);

export interface WorkspaceMeasurement {
  bytes: number;
  /** the round trip: the walk itself, not the helper's start */
  elapsedMs: number;
}

/** Measures one container's workspace through a helper kept running in it (WORKSPACE_USAGE_SOURCE). */
export class WorkspaceMeter {
  private readonly helper: ContainerHelper;
  private closed = false;

  constructor(
    docker: Docker,
    private readonly container: Docker.Container,
    user: string,
  ) {
    this.helper = new ContainerHelper(docker, user, {
      source: WORKSPACE_USAGE_SOURCE,
      name: 'the workspace measurement',
      timeoutMs: MEASURE_TIMEOUT_MS,
    });
  }

  /** The workspace's size in bytes; undefined when it could not be measured (container gone, timeout). */
  async measure(): Promise<WorkspaceMeasurement | undefined> {
    if (this.closed) return undefined;
    try {
      const answer = await this.helper.ask(this.container, '\n');
      const usage = WorkspaceUsageSchema.parse(JSON.parse(answer.line));
      return 'bytes' in usage ? { bytes: usage.bytes, elapsedMs: answer.roundTripMs } : undefined;
    } catch {
      return undefined;
    }
  }

  close(): void {
    this.closed = true;
    this.helper.stop();
  }
}
