import { createRequire } from 'node:module';
import type Docker from 'dockerode';
import { chooseEngine, describeEngine, sshRefusalHint, type EngineChoice } from './engine-choice.js';

/** a refused or missing socket fails at once; this only bounds an engine that hangs (slow under heavy load) */
const PING_TIMEOUT_MS = 15_000;

export const START_DOCKER_HINT =
  'Start Docker and try again: open Docker Desktop (macOS/Windows), or run `sudo systemctl start docker` ' +
  '(Linux; `sudo dockerd &` without systemd). DOCKER_HOST selects another engine. To run code on this machine ' +
  'without isolation instead, set sandbox.mode to "local" (or start with --sandbox local).';

/** The sandbox cannot run: no engine, no image... `message` is written for the model and the user alike. */
export class SandboxUnavailableError extends Error {
  override readonly name = 'SandboxUnavailableError';
}

/** one client per engine endpoint for the app */
const sharedClients = new Map<string, Docker>();

/** The client of the chosen engine (see chooseEngine: the setting or flag, DOCKER_HOST, the Docker context, the socket). */
export function dockerClient(choice: EngineChoice = chooseEngine(undefined)): Docker {
  const existing = sharedClients.get(choice.endpoint);
  if (existing) return existing;
  // required on first use: dockerode (and ssh2 under it) costs start-up time to runs that never touch Docker
  const DockerClient = createRequire(import.meta.url)('dockerode') as typeof Docker;
  const client = new DockerClient(choice.options);
  sharedClients.set(choice.endpoint, client);
  return client;
}

export interface EngineStatus {
  reachable: boolean;
  version?: string;
  error?: string;
}

export async function engineStatus(docker: Docker = dockerClient()): Promise<EngineStatus> {
  try {
    const version = await withTimeout(docker.version(), PING_TIMEOUT_MS);
    return { reachable: true, version: version.Version };
  } catch (error) {
    return { reachable: false, error: errorText(error) };
  }
}

/** Throws a SandboxUnavailableError that says how to start Docker when the engine does not answer. */
export async function requireEngine(docker: Docker = dockerClient(), choice?: EngineChoice): Promise<void> {
  const status = await engineStatus(docker);
  if (!status.reachable) throw engineUnreachable(status.error ?? 'no answer', choice);
}

/** The engine does not answer: for a remote one, where it is and that the session picks up again when it is back. */
export function engineUnreachable(detail: string, choice?: EngineChoice): SandboxUnavailableError {
  if (!choice || choice.local) {
    return new SandboxUnavailableError(`The Docker engine is not reachable (${detail}). ${START_DOCKER_HINT}`);
  }
  const hint = sshRefusalHint(choice, detail);
  if (hint) {
    return new SandboxUnavailableError(`The Docker engine at ${describeEngine(choice)} was refused: ${hint}.`);
  }
  return new SandboxUnavailableError(
    `The Docker engine at ${describeEngine(choice)} is not reachable (${detail}). Check that the machine is up and ` +
      'reachable and its engine running; this session carries on when it answers again (files already brought back ' +
      "are in the user's folder). sandbox.engine or --engine chooses another engine.",
  );
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
