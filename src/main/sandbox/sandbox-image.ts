import type Docker from 'dockerode';
import { describeEngine, type EngineChoice } from './engine-choice.js';
import { SandboxUnavailableError, errorText } from './engine.js';

import type { ProgressListener } from './sandbox.js';

interface PullProgressEvent {
  id?: string;
  status?: string;
  progressDetail?: { current?: number; total?: number };
  error?: string;
}

export async function imageExists(docker: Docker, image: string): Promise<boolean> {
  try {
    await docker.getImage(image).inspect();
    return true;
  } catch {
    return false;
  }
}

/** Makes sure the image is there: a missing one is pulled, reporting layer progress. */
export async function ensureImage(
  docker: Docker,
  image: string,
  onProgress?: ProgressListener,
  engine?: EngineChoice,
): Promise<void> {
  if (await imageExists(docker, image)) return;
  onProgress?.(`Sandbox image ${image} is missing: pulling it`);
  try {
    const stream = await docker.pull(image);
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (error: Error | null) => (error ? reject(error) : resolve()),
        (event: PullProgressEvent) => {
          if (event.error) return;
          const detail = event.progressDetail?.total
            ? ` ${Math.round(((event.progressDetail.current ?? 0) / event.progressDetail.total) * 100)}%`
            : '';
          onProgress?.(`${event.id ? `${event.id}: ` : ''}${event.status ?? ''}${detail}`);
        },
      );
    });
  } catch (error) {
    const where = engine && !engine.local ? `the engine at ${describeEngine(engine)}` : 'this machine';
    throw new SandboxUnavailableError(
      `The sandbox image ${image} is not on ${where} and could not be pulled (${errorText(error)}). ` +
        'Build it there with `manus sandbox build` (from resources/sandbox/Dockerfile; it builds on the engine the ' +
        'sandbox uses) or, with no registry, `manus sandbox build --offline`.',
    );
  }
  if (!(await imageExists(docker, image)))
    throw new SandboxUnavailableError(`Pulling ${image} finished but the image is not there.`);
}
