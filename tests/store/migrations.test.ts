import fs from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { applyMigrations, appliedVersions, databaseFile, openDatabase } from '../../src/main/store/database.js';
import { MIGRATIONS, type Migration } from '../../src/main/store/migrations/index.js';
import { tempDir } from './store-fixtures.js';

function tableNames(db: Database.Database): string[] {
  return (
    db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger') ORDER BY name`).all() as {
      name: string;
    }[]
  ).map((row) => row.name);
}

describe('migrations', () => {
  it('numbers migrations 1..n without gaps', () => {
    expect(MIGRATIONS.map((migration) => migration.version)).toEqual(MIGRATIONS.map((_, index) => index + 1));
  });

  it('001 creates the tables, search index and triggers on a fresh database, with WAL and foreign keys on', () => {
    const db = openDatabase(tempDir());
    try {
      expect(appliedVersions(db)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(tableNames(db)).toEqual(
        expect.arrayContaining([
          'sessions',
          'events',
          'agent_memory',
          'settings',
          'message_fts',
          'title_fts',
          'message_fts_queue',
          'events_no_update',
          'events_no_delete',
          'sessions_index_title',
          'sessions_reindex_title',
          'sessions_unindex',
        ]),
      );
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
      // NORMAL = 1
      expect(db.pragma('synchronous', { simple: true })).toBe(1);
      expect(db.pragma('busy_timeout', { simple: true })).toBeGreaterThan(0);
      expect(db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
    } finally {
      db.close();
    }
  });

  it('001 enforces the status and mode vocabularies', () => {
    const db = openDatabase(tempDir());
    try {
      const insert = db.prepare(
        `INSERT INTO sessions (id, title, status, mode, model, workspace, created_at, updated_at) VALUES (?, 't', ?, ?, 'm', '/w', 1, 1)`,
      );
      expect(() => insert.run('a', 'exploded', 'agent')).toThrow(/CHECK constraint/);
      expect(() => insert.run('b', 'idle', 'freestyle')).toThrow(/CHECK constraint/);
      insert.run('c', 'interrupted', 'plan_act');
    } finally {
      db.close();
    }
  });

  it.runIf(process.platform !== 'win32')('creates the database and its WAL readable by the user only', () => {
    const dataDir = tempDir();
    const db = openDatabase(dataDir);
    try {
      db.prepare(`INSERT INTO settings (key, json) VALUES ('k', '1')`).run();
      for (const suffix of ['', '-wal', '-shm']) {
        expect(fs.statSync(databaseFile(dataDir) + suffix).mode & 0o777).toBe(0o600);
      }
    } finally {
      db.close();
    }
  });

  it('re-opening an existing database applies nothing again and keeps its rows', () => {
    const dataDir = tempDir();
    const first = openDatabase(dataDir);
    first.prepare(`INSERT INTO settings (key, json) VALUES ('theme', '"dark"')`).run();
    first.close();
    const again = openDatabase(dataDir);
    try {
      expect(appliedVersions(again)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(applyMigrations(again, MIGRATIONS)).toEqual([]);
      expect(again.prepare(`SELECT json FROM settings WHERE key = 'theme'`).pluck().get()).toBe('"dark"');
    } finally {
      again.close();
    }
  });

  it('upgrades an existing database with only the newer migrations, keeping its data', () => {
    const dataDir = tempDir();
    const v1 = openDatabase(dataDir, MIGRATIONS.slice(0, 1));
    v1.prepare(`INSERT INTO settings (key, json) VALUES ('kept', '1')`).run();
    v1.close();
    const next: Migration = { version: 2, name: 'add note', sql: 'ALTER TABLE settings ADD COLUMN note TEXT' };
    const db = openDatabase(dataDir, [...MIGRATIONS.slice(0, 1), next]);
    try {
      expect(appliedVersions(db)).toEqual([1, 2]);
      expect(db.prepare(`SELECT json, note FROM settings WHERE key = 'kept'`).get()).toEqual({ json: '1', note: null });
    } finally {
      db.close();
    }
  });

  it('rolls a failing migration back entirely and names it', () => {
    const dataDir = tempDir();
    openDatabase(dataDir).close();
    const broken: Migration = {
      version: MIGRATIONS.length + 1,
      name: 'half done',
      sql: 'CREATE TABLE half (x INTEGER); INSERT INTO no_such_table VALUES (1);',
    };
    expect(() => openDatabase(dataDir, [...MIGRATIONS, broken])).toThrow(
      new RegExp(`migration ${MIGRATIONS.length + 1} \\(half done\\) failed`),
    );
    const db = new Database(databaseFile(dataDir));
    try {
      expect(tableNames(db)).not.toContain('half');
      expect(appliedVersions(db)).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      db.close();
    }
  });

  it('refuses a database written by a newer version', () => {
    const dataDir = tempDir();
    const future: Migration = { version: 99, name: 'future', sql: 'SELECT 1' };
    openDatabase(dataDir, [...MIGRATIONS, future]).close();
    expect(() => openDatabase(dataDir)).toThrow(/schema version 99, newer than this program knows/);
  });

  it('names the file when it is not a database', () => {
    const dataDir = tempDir();
    fs.writeFileSync(databaseFile(dataDir), 'this is not sqlite, just text that is long enough to have a header');
    expect(() => openDatabase(dataDir)).toThrow(new RegExp(`Cannot open the database .*manus\\.db`));
  });
});
