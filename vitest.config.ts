import { defineConfig } from 'vitest/config';

// A test file's lane is in its path: tests/e2e/** is end-to-end (the served app in Chromium), *.integration.test.ts
// is integration (real Docker, Chromium, MCP servers or the built CLI), every other *.test.ts is unit.
const E2E = ['tests/e2e/**/*.test.ts'];
const INTEGRATION = ['tests/**/*.integration.test.ts'];
// the CLI the integration and end-to-end files spawn; unit files import the code instead
const BUILD_CLI = ['tests/support/global-setup.ts'];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // one worker per core of the 2-core machine the suite is sized for; every lane runs its files side by side
    maxWorkers: 2,
    // the many temp data folders of a test run keep their keys in key files, not in the developer's login keychain
    // (tests/secrets/keychain-real.integration.test.ts runs the CLI against a private GNOME Keyring instead)
    env: { MANUS_NO_KEYCHAIN: '1' },
    reporters: ['default'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/**/*.test.ts'], exclude: [...E2E, ...INTEGRATION] } },
      { extends: true, test: { name: 'integration', include: INTEGRATION, globalSetup: BUILD_CLI } },
      { extends: true, test: { name: 'e2e', include: E2E, globalSetup: BUILD_CLI } },
    ],
  },
});
