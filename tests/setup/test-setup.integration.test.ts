import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { describe, expect, it } from 'vitest';

const SETUP_ENV = 'node_modules/.cache/manus-test-setup.env';

describe('scripts/test-setup.sh on a machine it has set up', () => {
  it('finds every part (Docker, the sandbox image, the second engine) and passes its address on to the tests', () => {
    const result = spawnSync('bash', ['scripts/test-setup.sh', '--check'], { encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/all that npm test needs is here/);
    expect(result.status).toBe(0);
    const recorded = parseEnv(readFileSync(SETUP_ENV, 'utf8'));
    expect(recorded.MANUS_TEST_REMOTE_DOCKER).toMatch(/^tcp:\/\/127\.0\.0\.1:\d+$/);
    // vitest.config.ts hands the recorded address to every test file, which is how the remote-engine tests find it
    expect(process.env.MANUS_TEST_REMOTE_DOCKER).toBe(recorded.MANUS_TEST_REMOTE_DOCKER);
  });
});
