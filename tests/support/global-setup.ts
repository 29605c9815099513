import { execFileSync } from 'node:child_process';

/** The CLI tests spawn the built `manus` binary: build it once (esbuild, well under a second). */
export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build-cli.mjs'], { stdio: 'inherit' });
}
