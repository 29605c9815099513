import type { SandboxBuildJob } from '../../shared/contract.js';
import { chooseEngine } from '../sandbox/engine-choice.js';
import { dockerClient, errorText, requireEngine } from '../sandbox/engine.js';
import { buildImageFromDockerfile, buildImageOffline } from '../sandbox/sandbox-admin.js';
import { ensureImage } from '../sandbox/sandbox-image.js';

const KEPT_LINES = 30;
const BUILD_TIMEOUT_MS = 30 * 60_000;
const DOCKERFILE_STEP = /Step (\d+)\/(\d+)/;
const PERCENT = /(\d{1,3})%/;

/** The one sandbox image build the settings screen started: its log tail and progress, polled by the UI. */
export class SandboxBuildJobs {
  private job: SandboxBuildJob = { state: 'idle', lines: [] };

  current(): SandboxBuildJob {
    return this.job;
  }

  /** Starts a build unless one runs; returns at once, progress arrives through current(). */
  start(method: NonNullable<SandboxBuildJob['method']>, image: string, engine?: string): SandboxBuildJob {
    if (this.job.state === 'running') return this.job;
    this.job = { state: 'running', method, lines: [], percent: method === 'offline' ? undefined : 0 };
    const signal = AbortSignal.timeout(BUILD_TIMEOUT_MS);
    const progress = (line: string): void => {
      const step = DOCKERFILE_STEP.exec(line);
      const percent = PERCENT.exec(line);
      let next = this.job.percent;
      if (step) next = Math.round((Number(step[1]) / Number(step[2])) * 100);
      else if (method === 'pull' && percent) next = Math.min(100, Number(percent[1]));
      this.job = { ...this.job, lines: [...this.job.lines, line].slice(-KEPT_LINES), percent: next };
    };
    void this.run(method, image, engine, progress, signal).then(
      () => (this.job = { ...this.job, state: 'done', percent: 100 }),
      (error: unknown) => (this.job = { ...this.job, state: 'failed', error: errorText(error) }),
    );
    return this.job;
  }

  private async run(
    method: NonNullable<SandboxBuildJob['method']>,
    image: string,
    engineSetting: string | undefined,
    progress: (line: string) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const engine = chooseEngine(engineSetting);
    const docker = dockerClient(engine);
    await requireEngine(docker, engine);
    if (method === 'offline') await buildImageOffline({ image, signal, engine }, progress);
    else if (method === 'pull') await ensureImage(docker, image, progress);
    else await buildImageFromDockerfile(docker, image, progress);
  }
}
