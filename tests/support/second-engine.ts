import { describe, it } from 'vitest';

/** The second Docker engine started by scripts/sandbox/second-engine.sh; npm test's set-up passes it on (vitest.config.ts). */
export const SECOND_ENGINE = process.env.MANUS_TEST_REMOTE_DOCKER;

const MISSING =
  'MANUS_TEST_REMOTE_DOCKER is not set: `sudo bash scripts/test-setup.sh` starts the second engine and records it ' +
  '(or start it with `bash scripts/sandbox/second-engine.sh` and export the line it prints)';

/** A describe that needs the second engine: without it, skipped with the reason printed, but failing in CI. */
export function describeWithSecondEngine(name: string, body: (endpoint: string) => void): void {
  if (SECOND_ENGINE) {
    describe(name, () => body(SECOND_ENGINE));
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('has the second engine', () => {
        throw new Error(MISSING);
      });
    });
    return;
  }
  console.warn(`[skipped] ${name}: ${MISSING}`);
  describe.skip(name, () => body(''));
}
