// Rebuilds native modules (better-sqlite3) for Electron's ABI when the Electron binary is installed.
// Without it (ELECTRON_SKIP_BINARY_DOWNLOAD=1, CI, the CLI-only install) there is nothing to rebuild for:
// the step says so and succeeds, so `npm install` keeps working.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = process.cwd();
const electronDist = join(root, 'node_modules', 'electron', 'dist');
const builder = join(
  root,
  'node_modules',
  '.bin',
  process.platform === 'win32' ? 'electron-builder.cmd' : 'electron-builder',
);

if (process.env.MANUS_SKIP_ELECTRON_REBUILD === '1') {
  console.log('postinstall: MANUS_SKIP_ELECTRON_REBUILD=1, native modules left as they are.');
  process.exit(0);
}
if (!existsSync(electronDist)) {
  console.log(
    'postinstall: the Electron binary is not installed (node_modules/electron/dist is absent); ' +
      'skipping the rebuild of better-sqlite3 for Electron. The CLI and `manus serve` use Node and need none.',
  );
  process.exit(0);
}
if (!existsSync(builder)) {
  console.log('postinstall: electron-builder is not installed (production install); skipping the native rebuild.');
  process.exit(0);
}
console.log('postinstall: rebuilding native modules for Electron (electron-builder install-app-deps)…');
const result = spawnSync(builder, ['install-app-deps'], { stdio: 'inherit', shell: process.platform === 'win32' });
if (result.status !== 0) {
  console.error(
    'postinstall: the rebuild for Electron failed. The desktop app may not open its database; ' +
      'run `npx electron-builder install-app-deps` after installing a C++ toolchain (the CLI is unaffected).',
  );
}
// a failed rebuild must not fail `npm install`: the CLI and the web mode do not need it
process.exit(0);
