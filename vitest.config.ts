import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // sandbox and browser tests share one Docker engine and one Chromium: keep files from starving each other
    maxWorkers: 2,
    reporters: ['default'],
  },
});
