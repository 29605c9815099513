import type Docker from 'dockerode';
import { dataDirOf, settingsOf } from '../config/session-settings.js';
import { defineResource } from '../session/resources.js';
import type { ToolContext } from '../tool/tool.js';
import { isManagedWorkspace } from '../store/data-dir.js';
import { OWNER_LABEL, SANDBOX_LABEL, SESSION_LABEL, ownerLabelOf } from './container-spec.js';
import { DockerSandbox } from './docker-sandbox.js';
import { dockerClient } from './engine.js';
import { LOCAL_SANDBOX_WARNING, LocalSandbox } from './local-sandbox.js';
import type { Sandbox } from './sandbox.js';

/** live docker sandboxes by session, so a session deleted elsewhere can take its container with it */
const liveSandboxes = new Map<string, DockerSandbox>();

/** The session's sandbox: created at the first code tool call, kept across steps and turns. */
export const sandboxResource = defineResource<Sandbox>({
  name: 'sandbox',
  create(owner) {
    const settings = settingsOf(owner.resources).sandbox;
    if (settings.mode === 'local') return new LocalSandbox(owner.workspace);
    const dataDir = dataDirOf(owner.resources);
    const sandbox = new DockerSandbox({
      docker: dockerClient(),
      sessionId: owner.sessionId,
      workspace: owner.workspace,
      settings,
      managedWorkspace: dataDir !== undefined && isManagedWorkspace(dataDir, owner.sessionId, owner.workspace),
      owner: dataDir ? ownerLabelOf(dataDir) : undefined,
    });
    liveSandboxes.set(owner.sessionId, sandbox);
    return sandbox;
  },
  async dispose(sandbox) {
    await sandbox.dispose();
  },
});

const LOCAL_WARNED = 'sandbox.localWarned';

/** The sandbox for a tool call; in local mode the first use warns the session that nothing is isolated. */
export async function sandboxFor(ctx: ToolContext): Promise<Sandbox> {
  const sandbox = await ctx.resources.get(sandboxResource);
  if (sandbox.kind === 'local' && !ctx.resources.provision<boolean>(LOCAL_WARNED)) {
    ctx.resources.provide(LOCAL_WARNED, true);
    ctx.emit({
      type: 'notice',
      sessionId: ctx.sessionId,
      level: 'warning',
      code: 'local_sandbox',
      text: LOCAL_SANDBOX_WARNING,
    });
  }
  return sandbox;
}

/** The session is deleted: its container (live or left from an earlier run) is removed. */
export async function removeSessionSandbox(sessionId: string, docker: Docker = dockerClient()): Promise<void> {
  const live = liveSandboxes.get(sessionId);
  liveSandboxes.delete(sessionId);
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
}

export interface OrphanCleanupOptions {
  docker?: Docker;
  /** only sessions for which this is true are considered (another app instance's sessions are not ours to judge) */
  ownsSession?: (sessionId: string) => boolean;
  /** only containers of sessions of this data folder are considered */
  dataDir?: string;
}

/** At start: remove sandbox containers whose session no longer exists. Returns the ids removed. */
export async function cleanupOrphanSandboxes(
  liveSessionIds: Iterable<string>,
  options: OrphanCleanupOptions = {},
): Promise<string[]> {
  const docker = options.docker ?? dockerClient();
  const keep = new Set(liveSessionIds);
  const labels = options.dataDir ? [SANDBOX_LABEL, `${OWNER_LABEL}=${ownerLabelOf(options.dataDir)}`] : [SANDBOX_LABEL];
  const all = await docker.listContainers({ all: true, filters: { label: labels } });
  const orphans = all.filter((info) => {
    const sessionId = info.Labels[SESSION_LABEL] ?? '';
    return !keep.has(sessionId) && (options.ownsSession?.(sessionId) ?? true);
  });
  await Promise.all(
    orphans.map((info) =>
      docker
        .getContainer(info.Id)
        .remove({ force: true })
        .catch(() => undefined),
    ),
  );
  return orphans.map((info) => info.Id);
}

/** The session's docker sandbox when one is running in this process (status, tests). */
export function liveDockerSandbox(sessionId: string): DockerSandbox | undefined {
  return liveSandboxes.get(sessionId);
}
