import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // the sandbox, browser and e2e files share one Docker engine, one Chromium and 2 CPUs: one file at a time keeps
    // their timing assumptions (idle returns, container restarts, downloads) true on a loaded CI machine
    fileParallelism: false,
    // the many temp data folders of a test run keep their keys in key files, not in the developer's login keychain
    // (tests/secrets/keychain-real.test.ts runs the CLI against a private GNOME Keyring instead)
    env: { MANUS_NO_KEYCHAIN: '1' },
    reporters: ['default'],
  },
});
