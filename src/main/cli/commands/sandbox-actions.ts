import type { Command } from 'commander';
import { loadSettings } from '../../config/settings-store.js';
import { openCliContext } from '../cli-context.js';
import type { SandboxSettings } from '../../../shared/settings/sandbox-settings.js';
import { chooseEngine, describeEngine, type EngineChoice } from '../../sandbox/engine-choice.js';
import { dockerClient, requireEngine } from '../../sandbox/engine.js';
import {
  buildImageFromDockerfile,
  buildImageOffline,
  sandboxStatus,
  type SandboxStatus,
} from '../../sandbox/sandbox-admin.js';
import { removeOrphanSandboxes, type RemovedSandbox } from '../../sandbox/orphan-sandboxes.js';
import { removeOrphanWorkspaceVolumes } from '../../sandbox/workspace-volume.js';
import { printOut } from '../output/terminal-print.js';

export interface BuildOptions {
  offline?: boolean;
  force?: boolean;
  image?: string;
  engine?: string;
}

/** `manus sandbox build` */
export async function buildSandbox(options: BuildOptions, command: Command): Promise<void> {
  const settings = configuredSandbox(command);
  const image = options.image ?? settings.image;
  const engine = chooseEngine(options.engine ?? settings.engine);
  const docker = dockerClient(engine);
  await requireEngine(docker, engine);
  // the build's own output (a Dockerfile's RUN steps, an engine's errors) is outside text
  const print = (line: string): void => printOut.line`${line}`;
  print(`Building on ${describeEngine(engine)}`);
  if (options.offline) await buildImageOffline({ image, force: options.force ?? false, engine }, print);
  else await buildImageFromDockerfile(docker, image, print);
  print(`Sandbox image ${image} is ready.`);
}

/** `manus sandbox status` */
export async function showSandboxStatus(
  options: { json?: boolean; image?: string; engine?: string },
  command: Command,
): Promise<void> {
  const settings = configuredSandbox(command);
  const engine = chooseEngine(options.engine ?? settings.engine);
  const status = await sandboxStatus(dockerClient(engine), options.image ?? settings.image, engine, settings.workspace);
  if (options.json) printOut.json(status);
  else printOut.text(describeStatus(status, engine));
  if (!status.engine.reachable) process.exitCode = 1;
}

/** `manus sandbox prune` */
export async function pruneSandboxes(
  options: { all?: boolean; json?: boolean; engine?: string },
  command: Command,
): Promise<void> {
  const engine = chooseEngine(options.engine ?? configuredSandbox(command).engine);
  const docker = dockerClient(engine);
  await requireEngine(docker, engine);
  const context = openCliContext({ dataDir: command.optsWithGlobals<{ dataDir?: string }>().dataDir });
  let removed: RemovedSandbox[];
  let volumes: string[];
  try {
    const liveSessionIds = context.store.listSessions().map((session) => session.id);
    removed = await removeOrphanSandboxes({
      docker,
      dataDir: context.dataDir,
      liveSessionIds,
      includeIdle: options.all ?? false,
    });
    // after the containers, which hold their volumes
    volumes = await removeOrphanWorkspaceVolumes(docker, context.dataDir, liveSessionIds);
  } finally {
    context.close();
  }
  if (options.json) printOut.json(removed);
  else printOut.text(describeRemoved(removed) + describeRemovedVolumes(volumes));
}

function describeRemovedVolumes(volumes: string[]): string {
  if (volumes.length === 0) return '';
  return `Removed ${volumes.length} workspace volume(s) of deleted sessions:\n${volumes.map((name) => `  ${name}`).join('\n')}\n`;
}

function describeRemoved(removed: RemovedSandbox[]): string {
  if (removed.length === 0) return 'No sandbox container to remove.\n';
  const lines = removed.map(
    (container) => `  ${container.id.slice(0, 12)}  ${container.reason.padEnd(15)} session ${container.sessionId}`,
  );
  return `Removed ${removed.length} sandbox container(s):\n${lines.join('\n')}\n`;
}

/** the saved sandbox settings (image, engine, workspace transfer) */
function configuredSandbox(command: Command): SandboxSettings {
  const context = openCliContext({ dataDir: command.optsWithGlobals<{ dataDir?: string }>().dataDir });
  try {
    return loadSettings(context.store, context.secrets).sandbox;
  } finally {
    context.close();
  }
}

function describeStatus(status: SandboxStatus, engine: EngineChoice): string {
  const where = describeEngine(engine);
  const transfer =
    status.engine.workspace === 'bind'
      ? 'bind-mounted from the host folder'
      : 'copied into a volume on the engine, synced after each call';
  const lines = [
    status.engine.reachable
      ? `Engine:  answering (Docker ${status.engine.version ?? '?'}) at ${where}`
      : `Engine:  NOT reachable at ${where} (${status.engine.error ?? 'no answer'})`,
    `Workspace: ${transfer}`,
    status.image.present
      ? `Image:   ${status.image.name} present (${status.image.id}, ${status.image.sizeMb} MB)`
      : `Image:   ${status.image.name} missing (build it there: manus sandbox build${engineFlag(engine)}, or add --offline)`,
  ];
  if (status.containers.length === 0) lines.push('Containers: none');
  else {
    lines.push(`Containers (${status.containers.length}):`);
    for (const container of status.containers) {
      lines.push(`  ${container.id}  ${container.state.padEnd(8)} session ${container.sessionId}  ${container.status}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** the --engine flag that names this engine again, when it did not come from the environment or settings */
function engineFlag(engine: EngineChoice): string {
  return engine.source === 'sandbox.engine' ? ` --engine ${engine.endpoint}` : '';
}
