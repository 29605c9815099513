import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type Docker from 'dockerode';
import { OWNER_LABEL, SANDBOX_LABEL, SESSION_LABEL, VOLUME_NO_COPY, ownerLabelOf } from './container-spec.js';
import { CONTAINER_WORKSPACE } from '../workspace/sandbox-path.js';

/** the engine's answer to removing a volume a container still holds */
const VOLUME_IN_USE = 409;
const RELEASE_ATTEMPTS = 20;
const RELEASE_WAIT_MS = 250;

/** A copy-mode session's workspace volume on the engine: one per session and host folder, kept between turns. */
export function workspaceVolumeName(sessionId: string, workspace: string): string {
  const folder = createHash('sha256').update(resolve(workspace)).digest('hex').slice(0, 12);
  return `manus-workspace-${sessionId.replace(/[^a-zA-Z0-9_.-]/g, '').slice(0, 40)}-${folder}`;
}

/** Creates the volume unless it exists, its root owned by the sandbox's user; true when it was made now (empty). */
export async function ensureWorkspaceVolume(
  docker: Docker,
  name: string,
  labels: { sessionId: string; owner?: string },
  root: { image: string; uid: number; gid: number },
): Promise<boolean> {
  const existing = await docker
    .getVolume(name)
    .inspect()
    .catch(() => undefined);
  if (existing) return false;
  await docker.createVolume({
    Name: name,
    Labels: {
      [SANDBOX_LABEL]: '1',
      [SESSION_LABEL]: labels.sessionId,
      ...(labels.owner ? { [OWNER_LABEL]: labels.owner } : {}),
    },
  });
  await giveVolumeRoot(docker, name, root);
  return true;
}

/**
 * A new volume's root belongs to root; the archive API cannot change the owner of the folder it extracts into, so a
 * one-shot container with only CAP_CHOWN hands it to the sandbox's user.
 */
async function giveVolumeRoot(
  docker: Docker,
  volume: string,
  root: { image: string; uid: number; gid: number },
): Promise<void> {
  const container = await docker.createContainer({
    Image: root.image,
    Entrypoint: [],
    Cmd: ['chown', `${root.uid}:${root.gid}`, CONTAINER_WORKSPACE],
    User: '0:0',
    HostConfig: {
      // NoCopy: an empty volume would otherwise get the image's /workspace, owner included, at every first mount
      Mounts: [{ Type: 'volume', Source: volume, Target: CONTAINER_WORKSPACE, VolumeOptions: VOLUME_NO_COPY }],
      ReadonlyRootfs: true,
      CapDrop: ['ALL'],
      CapAdd: ['CHOWN'],
      SecurityOpt: ['no-new-privileges'],
      NetworkMode: 'none',
    },
  });
  try {
    await container.start();
    const { StatusCode } = (await container.wait()) as { StatusCode: number };
    if (StatusCode !== 0) throw new Error(`chown of the workspace volume ${volume} failed (exit ${StatusCode})`);
  } finally {
    await container.remove({ force: true }).catch(() => undefined);
  }
}

/** The session is gone: its volumes on the engine go too (after its containers, which hold them). */
export async function removeWorkspaceVolumes(docker: Docker, sessionId: string): Promise<void> {
  const { Volumes } = await docker.listVolumes({ filters: { label: [`${SESSION_LABEL}=${sessionId}`] } });
  await Promise.all((Volumes ?? []).map((volume) => removeReleasedVolume(docker, volume.Name)));
}

/** A loaded engine may still count a just-removed container as the volume's user for a moment: asked again, briefly. */
async function removeReleasedVolume(docker: Docker, name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await docker.getVolume(name).remove();
      return;
    } catch (error) {
      const inUse = (error as { statusCode?: number }).statusCode === VOLUME_IN_USE;
      if (!inUse || attempt === RELEASE_ATTEMPTS) return;
      await new Promise((resolve) => setTimeout(resolve, RELEASE_WAIT_MS));
    }
  }
}

/**
 * Workspace volumes of this data folder's sessions that no longer exist (deleted while their engine was away); a
 * volume a container still uses is refused by the engine and stays. Returns the names removed.
 */
export async function removeOrphanWorkspaceVolumes(
  docker: Docker,
  dataDir: string,
  liveSessionIds: Iterable<string>,
): Promise<string[]> {
  const live = new Set(liveSessionIds);
  const { Volumes } = await docker.listVolumes({
    filters: { label: [SANDBOX_LABEL, `${OWNER_LABEL}=${ownerLabelOf(dataDir)}`] },
  });
  const orphans = (Volumes ?? []).filter((volume) => !live.has(volume.Labels?.[SESSION_LABEL] ?? ''));
  const removed = await Promise.all(
    orphans.map((volume) =>
      docker
        .getVolume(volume.Name)
        .remove()
        .then(
          () => volume.Name,
          () => undefined,
        ),
    ),
  );
  return removed.filter((name): name is string => name !== undefined);
}
