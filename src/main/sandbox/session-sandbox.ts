import type Docker from 'dockerode';
import { isManagedWorkspace } from '../store/data-dir.js';
import { SESSION_LABEL, ownerLabelOf } from './container-spec.js';
import { DockerSandbox } from './docker-sandbox.js';
import { chooseEngine, workspaceTransfer } from './engine-choice.js';
import { dockerClient } from './engine.js';
import { LocalSandbox } from './local-sandbox.js';
import type { Sandbox } from './sandbox.js';
import type { SandboxSettings } from '../../shared/settings/sandbox-settings.js';
import { removeWorkspaceVolumes, workspaceVolumeName } from './workspace-volume.js';

/** live docker sandboxes by session, so a session deleted elsewhere can take its container with it */
const liveSandboxes = new Map<string, DockerSandbox>();
/** warm sandboxes of sessions whose turn ended, oldest idle first (a Set keeps insertion order) */
const parkedSandboxes = new Set<DockerSandbox>();

export interface SessionSandboxOptions {
  sessionId: string;
  /** host path of the session workspace */
  workspace: string;
  settings: SandboxSettings;
  /** the data folder the session belongs to: its containers carry the folder's owner label */
  dataDir?: string;
}

/** The session's sandbox (created at its first code tool call, kept across steps and turns). */
export function createSessionSandbox(options: SessionSandboxOptions): Sandbox {
  const { sessionId, workspace, settings, dataDir } = options;
  if (settings.mode === 'local') return new LocalSandbox(workspace);
  const engine = chooseEngine(settings.engine);
  const docker = dockerClient(engine);
  // an engine that cannot see the host's folders gets a copy of the workspace, kept in step after each call
  const copy = workspaceTransfer(settings.workspace, engine) === 'copy';
  const sandbox = new DockerSandbox({
    docker,
    sessionId,
    workspace,
    settings,
    managedWorkspace: dataDir !== undefined && isManagedWorkspace(dataDir, sessionId, workspace),
    owner: dataDir ? ownerLabelOf(dataDir) : undefined,
    engine,
    ...(copy ? { copyToVolume: workspaceVolumeName(sessionId, workspace) } : {}),
  });
  liveSandboxes.set(sessionId, sandbox);
  return sandbox;
}

/** Starts a docker sandbox's container and interpreters ahead of the turn's first call (quietly; see warmUpDrivers). */
export async function warmUpSessionSandbox(sandbox: Sandbox, signal: AbortSignal): Promise<void> {
  if (sandbox instanceof DockerSandbox) await sandbox.warmUpDrivers(signal);
}

/** The turn ended: a container its warm-up brought up that no call used is removed (or stopped again). */
export async function coolDownSessionSandbox(sandbox: Sandbox): Promise<void> {
  if (sandbox instanceof DockerSandbox) await sandbox.coolDownUnused();
}

/** The session is released: its sandbox stops being idle-parked and is disposed (a docker one stops, kept for resume). */
export async function closeSessionSandbox(sandbox: Sandbox): Promise<void> {
  if (sandbox instanceof DockerSandbox) parkedSandboxes.delete(sandbox);
  await sandbox.dispose();
}

/** The client of the engine the settings choose, for cleanup: settings or an engine that cannot be read fall back to the default. */
export function cleanupClient(readSettings: () => SandboxSettings): Docker {
  try {
    return dockerClient(chooseEngine(readSettings().engine));
  } catch {
    return dockerClient();
  }
}

/** The session is deleted: its container (live or left from an earlier run) and workspace volume are removed. */
export async function removeSessionSandbox(sessionId: string, docker: Docker = dockerClient()): Promise<void> {
  const live = liveSandboxes.get(sessionId);
  liveSandboxes.delete(sessionId);
  if (live) parkedSandboxes.delete(live);
  await live?.destroy();
  const left = await docker
    .listContainers({ all: true, filters: { label: [`${SESSION_LABEL}=${sessionId}`] } })
    .catch(() => []);
  await Promise.all(
    left.map((info) =>
      docker
        .getContainer(info.Id)
        .remove({ force: true })
        .catch(() => undefined),
    ),
  );
  await removeWorkspaceVolumes(docker, sessionId).catch(() => undefined);
}

/** The session's docker sandbox when one is running in this process (status, tests). */
export function liveDockerSandbox(sessionId: string): DockerSandbox | undefined {
  return liveSandboxes.get(sessionId);
}

/**
 * The session's turn ended: its warm sandbox joins the idle ones; beyond `maxIdle` the oldest idle are stopped
 * (the idle timeout still stops each one later). A stopped one starts again at its session's next call.
 */
export async function parkSandbox(sessionId: string, maxIdle: number): Promise<void> {
  const sandbox = liveSandboxes.get(sessionId);
  if (!sandbox) return;
  parkedSandboxes.delete(sandbox);
  parkedSandboxes.add(sandbox);
  const excess = [...parkedSandboxes].slice(0, Math.max(0, parkedSandboxes.size - maxIdle));
  for (const oldest of excess) parkedSandboxes.delete(oldest);
  await Promise.all(excess.map((oldest) => oldest.stopForIdle()));
}

/** The session runs again: its sandbox is in use, not idle. */
export function unparkSandbox(sessionId: string): void {
  const sandbox = liveSandboxes.get(sessionId);
  if (sandbox) parkedSandboxes.delete(sandbox);
}
