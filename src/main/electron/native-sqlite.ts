import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app } from 'electron';

/** Where `npm install` puts better-sqlite3 built for Electron, beside Node's own build (see scripts/postinstall.mjs). */
export const ELECTRON_SQLITE_BINARY = join('native', 'electron', 'better_sqlite3.node');

/**
 * The better-sqlite3 binary for this Electron, built by the install (scripts/postinstall.mjs) and packaged as is
 * (electron-builder.yml: files, asarUnpack); node_modules keeps Node's build for the CLI and the tests.
 */
export function electronSqliteBinding(): string | undefined {
  const candidate = join(app.getAppPath(), ELECTRON_SQLITE_BINARY);
  return existsSync(candidate) ? candidate : undefined;
}
