// Bundles the `manus` CLI (the agent core without Electron) into out/cli/manus.mjs; dependencies stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main/cli/main.ts'],
  outfile: 'out/cli/manus.mjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
