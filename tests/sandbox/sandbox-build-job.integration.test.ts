import { describe, expect, it } from 'vitest';
import { SandboxBuildJobs } from '../../src/main/api/sandbox-build-job.js';
import { dockerClient, engineStatus } from '../../src/main/sandbox/engine.js';

const engine = await engineStatus(dockerClient());

describe('sandbox image build job', () => {
  it.runIf(engine.reachable)('reports a pull that cannot succeed (no registry) as failed, with the fix', async () => {
    const jobs = new SandboxBuildJobs();
    const started = jobs.start('pull', 'manus-e2e-missing-image:never');
    expect(started.state).toBe('running');
    // a second start while one runs returns the running job
    expect(jobs.start('dockerfile', 'other:latest').method).toBe('pull');
    await expect.poll(() => jobs.current().state, { timeout: 60_000 }).toBe('failed');
    expect(jobs.current().error).toMatch(/manus sandbox build/);
    expect(jobs.current().lines.join('\n')).toMatch(/missing: pulling it/);
  });
});
