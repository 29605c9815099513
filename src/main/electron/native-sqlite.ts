import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { app } from 'electron';

/** Where `npm install` puts better-sqlite3 built for Electron, beside Node's own build (see scripts/postinstall.mjs). */
export const ELECTRON_SQLITE_BINARY = join('native', 'electron', 'better_sqlite3.node');

/**
 * The better-sqlite3 binary for this Electron, when the development install built one; a packaged app has its
 * node_modules rebuilt for Electron by electron-builder and needs none.
 */
export function electronSqliteBinding(): string | undefined {
  const candidate = join(app.getAppPath(), ELECTRON_SQLITE_BINARY);
  return existsSync(candidate) ? candidate : undefined;
}
