import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Docker from 'dockerode';
import { SANDBOX_LABEL, SESSION_LABEL } from './container-spec.js';
import { workspaceTransfer, type EngineChoice } from './engine-choice.js';
import { engineStatus, errorText, type EngineStatus } from './engine.js';
import type { ProgressListener } from './sandbox.js';

const OFFLINE_SCRIPT = 'build-offline.sh';

/** resources/sandbox: next to the packaged app (extraResources), or found walking up from this module in a checkout */
export function sandboxResourcesDir(): string {
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [
    process.env.MANUS_SANDBOX_RESOURCES,
    packaged ? join(packaged, 'sandbox') : undefined,
    ...ancestors(dirname(fileURLToPath(import.meta.url))).map((folder) => join(folder, 'resources', 'sandbox')),
  ];
  const found = candidates.find((folder) => folder && existsSync(join(folder, 'Dockerfile')));
  if (!found)
    throw new Error(
      'resources/sandbox (the sandbox Dockerfile) was not found; set MANUS_SANDBOX_RESOURCES to its folder.',
    );
  return found;
}

function ancestors(start: string): string[] {
  const list: string[] = [];
  for (let folder = resolve(start); ; folder = dirname(folder)) {
    list.push(folder);
    if (dirname(folder) === folder) return list;
  }
}

interface BuildProgressEvent {
  stream?: string;
  status?: string;
  progress?: string;
  id?: string;
  error?: string;
  errorDetail?: { message?: string };
}

/** `manus sandbox build`: the image from resources/sandbox/Dockerfile, through the engine, with its build log as progress. */
export async function buildImageFromDockerfile(
  docker: Docker,
  image: string,
  onProgress: ProgressListener,
): Promise<void> {
  const context = sandboxResourcesDir();
  onProgress(`Building ${image} from ${join(context, 'Dockerfile')}`);
  const stream = await docker.buildImage({ context, src: ['Dockerfile'] }, { t: image, rm: true, forcerm: true });
  let failure: string | undefined;
  await new Promise<void>((done, fail) => {
    docker.modem.followProgress(
      stream,
      (error: Error | null) => (error ? fail(error) : done()),
      (event: BuildProgressEvent) => {
        if (event.error) failure = event.errorDetail?.message ?? event.error;
        const line = event.stream ?? [event.id, event.status, event.progress].filter(Boolean).join(' ');
        if (line.trim()) onProgress(line.replace(/\n$/, ''));
      },
    );
  });
  if (failure) throw new Error(`Building ${image} failed: ${failure}`);
}

/**
 * `manus sandbox build --offline`: runs build-offline.sh (debootstrap + docker import), its output as progress. The
 * root filesystem is made on this machine; the docker CLI then imports it into the chosen engine, remote or not.
 */
export async function buildImageOffline(
  options: { image: string; force?: boolean; signal?: AbortSignal; engine?: EngineChoice },
  onProgress: ProgressListener,
): Promise<void> {
  const script = join(sandboxResourcesDir(), OFFLINE_SCRIPT);
  const args = [script, '--image', options.image, ...(options.force ? ['--force'] : [])];
  const child = spawn('bash', args, {
    env: cliEnvironment(options.engine),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.signal ? { signal: options.signal } : {}),
  });
  let tail = '';
  const forward = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    tail = (tail + text).slice(-4000);
    for (const line of text.split('\n')) if (line.trim()) onProgress(line);
  };
  child.stdout.on('data', forward);
  child.stderr.on('data', forward);
  const code = await new Promise<number | null>((done) => {
    child.on('error', (error) => {
      tail += `\n${errorText(error)}`;
      done(null);
    });
    child.on('close', done);
  });
  if (code !== 0)
    throw new Error(
      `The offline build failed (exit ${code ?? 'signal'}): ${tail.trim().split('\n').slice(-3).join(' | ')}`,
    );
}

/** This process's environment, with the docker CLI pointed at the chosen engine. */
function cliEnvironment(engine: EngineChoice | undefined): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const [name, value] of Object.entries(engine?.cliEnv ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export interface SandboxContainerInfo {
  id: string;
  name: string;
  sessionId: string;
  state: string;
  status: string;
}

export interface SandboxStatus {
  engine: EngineStatus & {
    host: string;
    /** what chose the engine: the sandbox.engine setting or --engine, DOCKER_HOST, a Docker context, the default */
    source: string;
    /** on this machine's socket (sees the host's folders) */
    local: boolean;
    /** how /workspace reaches the sandbox there */
    workspace: 'bind' | 'copy';
  };
  image: { name: string; present: boolean; id?: string; sizeMb?: number; created?: string };
  containers: SandboxContainerInfo[];
}

/** `manus sandbox status`: which engine, does it answer, is the image there, which sandboxes exist. */
export async function sandboxStatus(
  docker: Docker,
  image: string,
  choice: EngineChoice,
  workspaceSetting: 'bind' | 'copy' | 'auto',
): Promise<SandboxStatus> {
  const engine = {
    ...(await engineStatus(docker)),
    host: choice.endpoint,
    source: choice.source,
    local: choice.local,
    workspace: workspaceTransfer(workspaceSetting, choice),
  };
  if (!engine.reachable) return { engine, image: { name: image, present: false }, containers: [] };
  const imageInfo = await docker
    .getImage(image)
    .inspect()
    .catch(() => undefined);
  const listed = await docker.listContainers({ all: true, filters: { label: [SANDBOX_LABEL] } });
  return {
    engine,
    image: imageInfo
      ? {
          name: image,
          present: true,
          id: imageInfo.Id.slice(7, 19),
          sizeMb: Math.round(imageInfo.Size / 1e6),
          created: imageInfo.Created,
        }
      : { name: image, present: false },
    containers: listed.map((info) => ({
      id: info.Id.slice(0, 12),
      name: (info.Names[0] ?? '').replace(/^\//, ''),
      sessionId: info.Labels[SESSION_LABEL] ?? '',
      state: info.State,
      status: info.Status,
    })),
  };
}
