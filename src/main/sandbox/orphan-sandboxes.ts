import type Docker from 'dockerode';
import { currentProcess, isOwnerAlive } from '../process/owner-process.js';
import { OWNER_LABEL, SANDBOX_LABEL, SESSION_LABEL, ownerLabelOf, ownerProcessOfLabels } from './container-spec.js';
import { dockerClient } from './engine.js';

/** a sweep at start never holds a command longer than this, even with an engine that hangs */
export const SWEEP_TIMEOUT_MS = 20_000;

export type OrphanReason = 'owner gone' | 'session deleted' | 'idle';

export interface RemovedSandbox {
  id: string;
  name: string;
  sessionId: string;
  reason: OrphanReason;
}

export interface OrphanSweepOptions {
  docker?: Docker;
  /** the data folder whose sessions are listed in `liveSessionIds` */
  dataDir?: string;
  /** sessions of `dataDir` that exist: a container made before owners were labelled goes when its session is gone */
  liveSessionIds?: Iterable<string>;
  /** also the stopped (idle) containers of live owners of this host (`manus sandbox prune --all`) */
  includeIdle?: boolean;
  signal?: AbortSignal;
}

type ListedContainer = Pick<Docker.ContainerInfo, 'Labels' | 'State'>;

/** Why a sandbox container is garbage, or undefined while someone may still use it. */
export function orphanReason(
  info: ListedContainer,
  options: Pick<OrphanSweepOptions, 'dataDir' | 'includeIdle'> & { liveSessionIds?: Set<string> },
): OrphanReason | undefined {
  const owner = ownerProcessOfLabels(info.Labels);
  if (owner) {
    const alive = isOwnerAlive(owner);
    // another host's container: its owner is in a process table this host cannot see
    if (alive === undefined) return undefined;
    if (!alive) return 'owner gone';
    return options.includeIdle && info.State !== 'running' && owner.pid !== process.pid ? 'idle' : undefined;
  }
  // made before owners were labelled: judged by its data folder's sessions, as it was then
  const { dataDir, liveSessionIds } = options;
  if (!dataDir || !liveSessionIds || info.Labels[OWNER_LABEL] !== ownerLabelOf(dataDir)) return undefined;
  return liveSessionIds.has(info.Labels[SESSION_LABEL] ?? '') ? undefined : 'session deleted';
}

/** Whose a session's existing container is: this process's (it may adopt it), another live process's, or nobody's. */
export function containerOwnership(labels: Record<string, string>): 'this process' | 'another process' | 'nobody' {
  const owner = ownerProcessOfLabels(labels);
  if (!owner) return 'nobody';
  const self = currentProcess();
  if (owner.pid === self.pid && owner.host === self.host && owner.started === self.started) return 'this process';
  return isOwnerAlive(owner) === false ? 'nobody' : 'another process';
}

/** Removes the sandbox containers nobody can use any more (see `orphanReason`); returns what went. */
export async function removeOrphanSandboxes(options: OrphanSweepOptions = {}): Promise<RemovedSandbox[]> {
  const docker = options.docker ?? dockerClient();
  const signal = options.signal ?? AbortSignal.timeout(SWEEP_TIMEOUT_MS);
  const liveSessionIds = options.liveSessionIds ? new Set(options.liveSessionIds) : undefined;
  const listed = await docker.listContainers({ all: true, filters: { label: [SANDBOX_LABEL] }, abortSignal: signal });
  const orphans = listed.flatMap((info) => {
    const reason = orphanReason(info, { ...options, liveSessionIds });
    return reason ? [{ info, reason }] : [];
  });
  const removed = await Promise.all(
    orphans.map(async ({ info, reason }): Promise<RemovedSandbox | undefined> => {
      try {
        await docker.getContainer(info.Id).remove({ force: true, abortSignal: signal });
      } catch {
        // gone already (another process swept it first) or the engine gave up: nothing to report
        return undefined;
      }
      const name = (info.Names[0] ?? '').replace(/^\//, '');
      return { id: info.Id, name, sessionId: info.Labels[SESSION_LABEL] ?? '', reason };
    }),
  );
  return removed.filter((entry): entry is RemovedSandbox => entry !== undefined);
}

/** At a process start: the sweep runs in the background; no engine, a slow one or a failure costs the command nothing. */
export function sweepOrphanSandboxesInBackground(options: OrphanSweepOptions = {}): Promise<RemovedSandbox[]> {
  return removeOrphanSandboxes(options).catch(() => []);
}
