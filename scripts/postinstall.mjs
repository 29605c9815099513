// Installs the Electron binary (scripts/electron-binary.mjs: skipped with a line saying so when its host cannot be
// reached), then builds better-sqlite3 for Electron's ABI into native/electron/, beside Node's own build: the app loads
// that one, while the CLI, `manus serve` and the tests keep Node's.
// Without the binary (ELECTRON_SKIP_BINARY_DOWNLOAD=1, CI, no access to GitHub) there is nothing to build: the step
// says so and succeeds, so `npm install` keeps working. A failed build never fails the install either.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { installElectronBinary } from './electron-binary.mjs';

const root = process.cwd();
const target = join(root, 'native', 'electron', 'better_sqlite3.node');

if (!(await installElectronBinary(root))) {
  console.log(
    'postinstall: the Electron binary is not installed, so no Electron build of better-sqlite3 is needed. ' +
      'The CLI and `manus serve` use Node.',
  );
  process.exit(0);
}
if (process.env.MANUS_SKIP_ELECTRON_REBUILD === '1') {
  console.log('postinstall: MANUS_SKIP_ELECTRON_REBUILD=1, no Electron build of better-sqlite3.');
  process.exit(0);
}

const readVersion = (pkg) => JSON.parse(readFileSync(join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version;

// a throwaway project holding a copy of better-sqlite3, rebuilt for Electron, so Node's build stays as it is
const work = join(root, 'node_modules', '.cache', 'manus-electron-sqlite');
try {
  const { rebuild } = await import('@electron/rebuild');
  const electronVersion = readVersion('electron');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'node_modules'), { recursive: true });
  cpSync(join(root, 'node_modules', 'better-sqlite3'), join(work, 'node_modules', 'better-sqlite3'), {
    recursive: true,
    dereference: true,
  });
  writeFileSync(
    join(work, 'package.json'),
    JSON.stringify({
      name: 'manus-electron-sqlite',
      private: true,
      dependencies: { 'better-sqlite3': readVersion('better-sqlite3') },
    }),
  );
  console.log(`postinstall: building better-sqlite3 for Electron ${electronVersion}…`);
  await rebuild({ buildPath: work, electronVersion, onlyModules: ['better-sqlite3'], force: true });
  mkdirSync(join(root, 'native', 'electron'), { recursive: true });
  copyFileSync(join(work, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), target);
  console.log(`postinstall: ${target} is ready for the desktop app.`);
} catch (error) {
  console.error(
    `postinstall: building better-sqlite3 for Electron failed (${error instanceof Error ? error.message : error}). ` +
      'The desktop app may not open its database; install a C++ toolchain and run `node scripts/postinstall.mjs`. ' +
      'The CLI, `manus serve` and the tests are unaffected.',
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(0);
