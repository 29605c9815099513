// Run by `npm run dist` before electron-builder: the packaged app opens its database with the better-sqlite3 built for
// Electron by scripts/postinstall.mjs (electron-builder rebuilds nothing, see electron-builder.yml); without it the
// app would fail at start with a NODE_MODULE_VERSION error.
import { existsSync } from 'node:fs';

const binary = 'native/electron/better_sqlite3.node';
if (!existsSync(binary)) {
  console.error(
    `${binary} is missing: install with the Electron binary (no ELECTRON_SKIP_BINARY_DOWNLOAD) or run ` +
      '`node scripts/postinstall.mjs`, on a machine of the architecture you package for.',
  );
  process.exit(1);
}
