import { createHash, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type Docker from 'dockerode';
import { currentProcess, type OwnerProcess } from '../process/owner-process.js';
import type { SandboxSettings } from '../../shared/settings/sandbox-settings.js';
import { SANDBOX_GID, SANDBOX_UID, folderOwner, hostUser } from './workspace-owner.js';
import { CONTAINER_WORKSPACE } from '../workspace/sandbox-path.js';

export const SESSION_LABEL = 'manus.session';
/** which data folder the container's session lives in: orphans are judged only against their own folder's sessions */
export const OWNER_LABEL = 'manus.owner';
export const SANDBOX_LABEL = 'manus.sandbox';
/** the process that made the container (pid, start time, host): once it is gone, nobody uses the container */
export const OWNER_PID_LABEL = 'manus.owner.pid';
export const OWNER_STARTED_LABEL = 'manus.owner.started';
/** a container of another host sharing a remote engine is never judged by this host's process table */
export const HOST_LABEL = 'manus.host';
/** nor one made in another pid namespace of this host (a Flatpak app, a CLI inside a container) */
export const PID_NAMESPACE_LABEL = 'manus.owner.pidns';
/** a container made with other settings (limits, network, image) is replaced, not reused */
export const CONFIG_LABEL = 'manus.sandbox.config';
export const CONTAINER_HOME = '/home/sandbox';

const MIB = 1024 * 1024;
const NOBODY = 65534;

/** Who the container processes run as. */
export interface SandboxIdentity {
  user: string;
  uid: number;
  gid: number;
}

/**
 * The host user, so files in /workspace are theirs. When the host user is root: the owner of the workspace folder, so
 * what the agent makes belongs to whoever owns the folder and nothing is ever re-owned afterwards. A root-owned folder
 * the user chose therefore runs as uid 0: with every capability dropped, no-new-privileges and a read-only root file
 * system (containerSpec), that uid 0 has no power beyond the mode bits of the files it sees, and the only host files it
 * sees are that folder's.
 */
export function sandboxIdentity(workspaceFolder: string, host = hostUser()): SandboxIdentity {
  const { uid, gid } =
    host === undefined ? { uid: SANDBOX_UID, gid: SANDBOX_GID } : host.uid === 0 ? folderOwner(workspaceFolder) : host;
  return { user: `${uid}:${gid}`, uid, gid };
}

/** nobody, unless the sandbox itself runs as nobody */
function keeperUser(identity: SandboxIdentity): string {
  const uid = identity.uid === NOBODY ? NOBODY - 1 : NOBODY;
  return `${uid}:${uid}`;
}

function fileSizeLimit(bytes: number): { Name: string; Soft: number; Hard: number } {
  return { Name: 'fsize', Soft: bytes, Hard: bytes };
}

export function sandboxEnv(): string[] {
  return [
    `HOME=${CONTAINER_HOME}`,
    'LANG=C.UTF-8',
    'MPLBACKEND=Agg',
    'PYTHONUNBUFFERED=1',
    'PYTHONDONTWRITEBYTECODE=1',
    'TERM=dumb',
    'PAGER=cat',
    'GIT_PAGER=cat',
    'DEBIAN_FRONTEND=noninteractive',
    `MANUS_WORKSPACE=${CONTAINER_WORKSPACE}`,
    'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
  ];
}

export function configFingerprint(settings: SandboxSettings, identity: SandboxIdentity, workspace: string): string {
  const relevant = [
    settings.image,
    settings.memoryMb,
    settings.cpus,
    settings.pidsLimit,
    settings.network,
    settings.tmpfsMb,
    settings.workspaceQuotaMb,
  ];
  return createHash('sha256')
    .update(JSON.stringify([...relevant, identity.user, workspace]))
    .digest('hex')
    .slice(0, 16);
}

/** a volume mounted without the image's content at the mount point (the engine's API takes NoCopy alone; the
 * typings ask for every VolumeOptions field) */
export const VOLUME_NO_COPY = { NoCopy: true } as NonNullable<Docker.MountSettings['VolumeOptions']>;

/** what a copy-mode container's fingerprint names instead of the host folder */
export function volumeKey(volume: string): string {
  return `volume:${volume}`;
}

export function ownerLabelOf(dataDir: string): string {
  return createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
}

export function ownerProcessLabels(owner: OwnerProcess): Record<string, string> {
  return {
    [OWNER_PID_LABEL]: String(owner.pid),
    ...(owner.started ? { [OWNER_STARTED_LABEL]: owner.started } : {}),
    [HOST_LABEL]: owner.host,
    ...(owner.pidNamespace ? { [PID_NAMESPACE_LABEL]: owner.pidNamespace } : {}),
  };
}

/** The owner process a container names, or undefined for a container made before owners were labelled. */
export function ownerProcessOfLabels(labels: Record<string, string>): OwnerProcess | undefined {
  const pid = Number(labels[OWNER_PID_LABEL]);
  const host = labels[HOST_LABEL];
  if (!labels[OWNER_PID_LABEL] || !Number.isInteger(pid) || !host) return undefined;
  const started = labels[OWNER_STARTED_LABEL];
  const pidNamespace = labels[PID_NAMESPACE_LABEL];
  return { pid, host, ...(started ? { started } : {}), ...(pidNamespace ? { pidNamespace } : {}) };
}

/** The hardened container of one session: each HostConfig line is a defence, said next to it. */
export function containerSpec(
  settings: SandboxSettings,
  sessionId: string,
  workspace: string,
  identity: SandboxIdentity,
  owner?: string,
  /** copy mode: the engine's volume holding the workspace, mounted instead of the host folder */
  workspaceVolume?: string,
): Docker.ContainerCreateOptions {
  const memory = settings.memoryMb * MIB;
  const tmpfsSize = `${settings.tmpfsMb}m`;
  return {
    Image: settings.image,
    // a random suffix: two sessions whose ids share their first 40 characters may start in the same millisecond
    name: `manus-sandbox-${sessionId.replace(/[^a-zA-Z0-9_.-]/g, '').slice(0, 40)}-${randomBytes(4).toString('hex')}`,
    Labels: {
      [SANDBOX_LABEL]: '1',
      [SESSION_LABEL]: sessionId,
      ...(owner ? { [OWNER_LABEL]: owner } : {}),
      [CONFIG_LABEL]: configFingerprint(settings, identity, workspaceVolume ? volumeKey(workspaceVolume) : workspace),
      // the process creating the container owns it
      ...ownerProcessLabels(currentProcess()),
    },
    // the container only idles; the work happens in attached execs that keep the session's state
    Cmd: ['sleep', 'infinity'],
    Entrypoint: [],
    // only the idle keeper runs as the container's user; the drivers run as `identity` (the host user or the
    // workspace folder's owner, see sandboxIdentity), so they cannot stop the container and can all be stopped at once
    User: keeperUser(identity),
    WorkingDir: CONTAINER_WORKSPACE,
    Env: sandboxEnv(),
    Tty: false,
    HostConfig: {
      // the workspace is the only writable, persistent path; no Docker socket or other host path is mounted
      Mounts: [
        workspaceVolume
          ? // NoCopy: the image's /workspace (and its owner) is not copied over the volume, which the sandbox user owns
            {
              Type: 'volume',
              Source: workspaceVolume,
              Target: CONTAINER_WORKSPACE,
              ReadOnly: false,
              VolumeOptions: VOLUME_NO_COPY,
            }
          : { Type: 'bind', Source: workspace, Target: CONTAINER_WORKSPACE, ReadOnly: false },
      ],
      // nothing outside /workspace and the tmpfs below can be changed
      ReadonlyRootfs: true,
      // scratch space in memory, gone with the container; nosuid so no setuid binary can be planted
      Tmpfs: {
        '/tmp': `rw,nosuid,nodev,size=${tmpfsSize},mode=1777`,
        [CONTAINER_HOME]: `rw,nosuid,nodev,size=${tmpfsSize},mode=0700,uid=${identity.uid},gid=${identity.gid}`,
      },
      // no capability at all (no chown, no raw sockets, no mounts...)
      CapDrop: ['ALL'],
      // setuid binaries cannot raise privileges
      SecurityOpt: ['no-new-privileges'],
      // a memory bomb is killed inside the sandbox; no swap to hide in
      Memory: memory,
      MemorySwap: memory,
      NanoCpus: Math.round(settings.cpus * 1e9),
      // a fork bomb hits this ceiling instead of the host's process table
      PidsLimit: settings.pidsLimit,
      // no single file larger than the workspace quota (the quota watchdog bounds the rest)
      ...(settings.workspaceQuotaMb > 0 ? { Ulimits: [fileSizeLimit(settings.workspaceQuotaMb * MIB)] } : {}),
      // no network unless the user allowed it for this session or in settings
      NetworkMode: settings.network ? 'bridge' : 'none',
      // reaps the zombies of background jobs
      Init: true,
      IpcMode: 'private',
      RestartPolicy: { Name: 'no' },
    },
  };
}
