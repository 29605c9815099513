import type Docker from 'dockerode';
import { z } from 'zod';
import { ContainerHelper } from './container-helper.js';
import { WORKSPACE_USAGE_SOURCE } from './drivers/sources.js';
import { hostWorkspaceUsage } from './host-workspace-usage.js';

/** a walk of a huge copied workspace in the sandbox may take this long before its meter counts as silent */
const WALK_TIMEOUT_MS = 60_000;
/** the sandbox's open files are a short look through /proc (bounded by its process limit): longer is a stopped meter */
const OPEN_FILES_TIMEOUT_MS = 10_000;
/** how long the host's figure waits for the helper's answer before going out with the last one */
const OPEN_FILES_GRACE_MS = 250;

const WorkspaceUsageSchema = z.union([
  z.object({ bytes: z.number().int().nonnegative() }),
  z.object({ error: z.string() }),
]);

/** One look at the workspace: its size, or that the helper in the sandbox stopped answering (a breach). */
export type MeterReading =
  | {
      kind: 'measured';
      bytes: number;
      /** the round trip: the walk itself, not the helper's start */
      elapsedMs: number;
    }
  | { kind: 'silent'; why: string };

export interface WorkspaceMeterOptions {
  docker: Docker;
  container: Docker.Container;
  /** the sandbox's user, who runs the helper (it must see what that user sees) */
  user: string;
  /**
   * the bind-mounted host folder: walked by this process, where sandbox code cannot stop it; the helper in the
   * sandbox only adds files deleted while still open (only the container's /proc shows them). Without it (copy mode,
   * the workspace is a volume on the engine) the helper walks the volume, counting each file at its apparent size,
   * which is what a copy writes on the host.
   */
  hostFolder?: string;
}

/**
 * Measures one container's workspace. What runs in the sandbox runs as its user, who can stop or kill it: a helper that
 * gives no answer in time, or dies while the container runs, is reported as silent, for the quota to treat as a breach.
 */
export class WorkspaceMeter {
  private readonly helper: ContainerHelper;
  private closed = false;
  /** bind mode: the last answer of the helper about files deleted while open, and the question under way */
  private openFileBytes = 0;
  private openFilesAsk: Promise<void> | undefined;
  /** bind mode: why the helper went silent, until a measurement reports it */
  private silence: string | undefined;

  constructor(private readonly options: WorkspaceMeterOptions) {
    this.helper = new ContainerHelper(options.docker, options.user, {
      source: WORKSPACE_USAGE_SOURCE,
      name: 'the workspace meter in the sandbox',
      timeoutMs: options.hostFolder ? OPEN_FILES_TIMEOUT_MS : WALK_TIMEOUT_MS,
    });
  }

  /** The workspace's size in bytes; undefined when it could not be measured (container or engine gone, meter closed). */
  async measure(): Promise<MeterReading | undefined> {
    if (this.closed) return undefined;
    const { hostFolder } = this.options;
    if (!hostFolder) return this.askHelper('apparent');
    const asked = this.refreshOpenFiles();
    const onHost = await walkHost(hostFolder);
    // a quick answer counts now; a slow or stopped helper never holds back what the host walk found
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([asked, new Promise((resolve) => (grace = setTimeout(resolve, OPEN_FILES_GRACE_MS)))]);
    clearTimeout(grace);
    if (this.silence !== undefined) {
      const why = this.silence;
      this.silence = undefined;
      return { kind: 'silent', why };
    }
    // the host folder could not be walked (gone): no size at all rather than part of one
    if (onHost === undefined) return undefined;
    return { kind: 'measured', bytes: onHost.bytes + this.openFileBytes, elapsedMs: onHost.elapsedMs };
  }

  close(): void {
    this.closed = true;
    this.helper.stop();
  }

  /** Asks the helper for the open files' size, unless it is still answering the last question. */
  private refreshOpenFiles(): Promise<void> {
    this.openFilesAsk ??= this.askHelper('open')
      .then((reading) => {
        if (reading?.kind === 'measured') this.openFileBytes = reading.bytes;
        if (reading?.kind !== 'silent') return;
        this.silence = reading.why;
        // the breach stops every sandbox process, so nothing holds a deleted file open any more
        this.openFileBytes = 0;
      })
      .finally(() => (this.openFilesAsk = undefined));
    return this.openFilesAsk;
  }

  private async askHelper(request: 'open' | 'apparent'): Promise<MeterReading | undefined> {
    const { container } = this.options;
    try {
      const answer = await this.helper.ask(container, `${request}\n`);
      const usage = WorkspaceUsageSchema.parse(JSON.parse(answer.line));
      return 'bytes' in usage ? { kind: 'measured', bytes: usage.bytes, elapsedMs: answer.roundTripMs } : undefined;
    } catch (error) {
      if (this.closed || !(await isRunning(container))) return undefined;
      // the container runs, yet its meter stopped: sandbox code stopped or killed it (or starved it of processes)
      return { kind: 'silent', why: error instanceof Error ? error.message : String(error) };
    }
  }
}

async function walkHost(folder: string): Promise<{ bytes: number; elapsedMs: number } | undefined> {
  const started = Date.now();
  try {
    return { bytes: await hostWorkspaceUsage(folder), elapsedMs: Date.now() - started };
  } catch {
    return undefined;
  }
}

async function isRunning(container: Docker.Container): Promise<boolean> {
  try {
    return (await container.inspect()).State.Running;
  } catch {
    return false;
  }
}
