import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { defineConfig } from 'vitest/config';

// A test file's lane is in its path: tests/e2e/** is end-to-end (the served app in Chromium), *.integration.test.ts
// is integration (real Docker, Chromium, MCP servers or the built CLI), every other *.test.ts is unit.
const E2E = ['tests/e2e/**/*.test.ts'];
const INTEGRATION = ['tests/**/*.integration.test.ts'];
// Integration files that run one at a time after the rest. orphan-sandboxes leaves containers whose owner is gone
// (any app started meanwhile sweeps them first) and its `prune --all` takes other files' stopped containers; the
// workspace quota and ownership files wait on a watchdog and on container start-up that lag when files run beside
// them on a loaded machine (each failed once next to others, none on its own).
const ALONE = [
  'tests/app/orphan-sandboxes.integration.test.ts',
  'tests/sandbox/workspace-quota.integration.test.ts',
  'tests/sandbox/workspace-ownership.integration.test.ts',
  'tests/sandbox/workspace-meter-tamper.integration.test.ts',
];
// the CLI the integration and end-to-end files spawn; unit files import the code instead
const BUILD_CLI = ['tests/support/global-setup.ts'];
// what scripts/test-setup.sh (npm's pretest) found, the second engine's address; a variable set in the shell wins
const SETUP_ENV = 'node_modules/.cache/manus-test-setup.env';
const setupEnv = existsSync(SETUP_ENV) ? parseEnv(readFileSync(SETUP_ENV, 'utf8')) : {};
const secondEngine = process.env.MANUS_TEST_REMOTE_DOCKER ?? setupEnv.MANUS_TEST_REMOTE_DOCKER;

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // one worker per core of the 2-core machine the suite is sized for: the lanes share them, two files at a time
    maxWorkers: 2,
    // the many temp data folders of a test run keep their keys in key files, not in the developer's login keychain
    // (tests/secrets/keychain-real.integration.test.ts runs the CLI against a private GNOME Keyring instead)
    env: { MANUS_NO_KEYCHAIN: '1', ...(secondEngine ? { MANUS_TEST_REMOTE_DOCKER: secondEngine } : {}) },
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: [...E2E, ...INTEGRATION] } },
      { extends: true, test: { name: 'integration', include: INTEGRATION, exclude: ALONE, globalSetup: BUILD_CLI } },
      { extends: true, test: { name: 'e2e', include: E2E, globalSetup: BUILD_CLI } },
      {
        extends: true,
        test: {
          name: 'integration-alone',
          include: ALONE,
          globalSetup: BUILD_CLI,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
