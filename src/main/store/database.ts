import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS, type Migration } from './migrations/index.js';

export const DATABASE_FILE_NAME = 'manus.db';
const BUSY_TIMEOUT_MS = 5_000;
// each checkpoint costs two fsyncs; every 10k pages (~40 MB of WAL) keeps them rare during bursts of appends
const WAL_AUTOCHECKPOINT_PAGES = 10_000;
// after a checkpoint the WAL file is cut back to this size instead of staying at its peak
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;
// negative: KiB; the FTS index and recent pages stay in memory
const PAGE_CACHE_KIB = 32 * 1024;

export type SqliteDatabase = Database.Database;

export class DatabaseOpenError extends Error {
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    super(`Cannot open the database ${file}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'DatabaseOpenError';
  }
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE_NAME);
}

export interface OpenDatabaseOptions {
  /** a better-sqlite3 binary built for another runtime (the Electron app's, next to Node's own) */
  nativeBinding?: string;
}

/** Opens (creating if missing) `<dataDir>/manus.db` and brings its schema up to date. */
export function openDatabase(
  dataDir: string,
  migrations: readonly Migration[] = MIGRATIONS,
  options: OpenDatabaseOptions = {},
): SqliteDatabase {
  const file = databaseFile(dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const isNew = !fs.existsSync(file);
  let db: SqliteDatabase | undefined;
  try {
    // conversations are private: SQLite gives the -wal and -shm files the mode of the database file (an empty
    // file is an empty database)
    if (isNew) createPrivateFile(file);
    db = openConnection(file, options);
    applyMigrations(db, migrations);
    return db;
  } catch (error) {
    db?.close();
    throw new DatabaseOpenError(file, error);
  }
}

/** Creates the file, empty and readable by its owner only, unless another process just did. */
function createPrivateFile(file: string): void {
  try {
    fs.closeSync(fs.openSync(file, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** A connection to a database file, configured like every other (its schema is the opener's business). */
export function openConnection(file: string, options: OpenDatabaseOptions = {}): SqliteDatabase {
  const db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    configure(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function configure(db: SqliteDatabase): void {
  // WAL: readers never block the writer, and a committed transaction survives a killed process
  db.pragma('journal_mode = WAL');
  // in WAL, NORMAL syncs at checkpoints only: durable against process crashes, not against power loss
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
  db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
}

export function appliedVersions(db: SqliteDatabase): number[] {
  const rows = db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
  return rows.map((row) => row.version);
}

/** A rebuilt table must leave every reference to it whole, as the foreign keys that were off would have. */
function assertForeignKeysHold(db: SqliteDatabase): void {
  const broken = db.pragma('foreign_key_check') as { table: string; parent: string }[];
  if (broken.length > 0) {
    throw new Error(`${broken.length} row(s) of ${broken[0]!.table} lost their ${broken[0]!.parent} row`);
  }
}

/** Applies every migration newer than the database, each in its own transaction (all or nothing). */
export function applyMigrations(db: SqliteDatabase, migrations: readonly Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const applied = new Set(appliedVersions(db));
  const known = new Set(migrations.map((migration) => migration.version));
  const unknown = [...applied].filter((version) => !known.has(version));
  if (unknown.length > 0) {
    throw new Error(
      `the database has schema version ${Math.max(...unknown)}, newer than this program knows; update Manus Desktop`,
    );
  }
  const recordVersion = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  const newlyApplied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    const apply = db.transaction(() => {
      // re-checked under the write lock: another process opening the same file may have applied it meanwhile
      if (isApplied.get(migration.version)) return false;
      db.exec(migration.sql);
      if (migration.rebuildsTables) assertForeignKeysHold(db);
      recordVersion.run(migration.version, migration.name, Date.now());
      return true;
    });
    // the pragma is ignored inside a transaction: it is switched around it
    const foreignKeys = db.pragma('foreign_keys', { simple: true });
    if (migration.rebuildsTables) db.pragma('foreign_keys = OFF');
    try {
      if (apply.immediate()) newlyApplied.push(migration.version);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`migration ${migration.version} (${migration.name}) failed: ${reason}`, { cause: error });
    } finally {
      if (migration.rebuildsTables) db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
    }
  }
  return newlyApplied;
}
