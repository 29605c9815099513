import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appliedVersions, openDatabase } from '../../src/main/store/database.js';
import { MIGRATIONS } from '../../src/main/store/migrations/index.js';
import { SqlitePlanStore } from '../../src/main/store/plan-store.js';

let dataDir = '';
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

describe('migration 3 (plans)', () => {
  it('upgrades a database made before plans existed, keeping its sessions, and plans go with their session', () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-plans-migration-'));
    const before = openDatabase(
      dataDir,
      MIGRATIONS.filter((migration) => migration.name !== 'plans'),
    );
    before
      .prepare(
        `INSERT INTO sessions (id, title, status, mode, model, workspace, created_at, updated_at)
         VALUES ('s1', 'old', 'finished', 'planning', 'm', '/tmp/w', 1, 1)`,
      )
      .run();
    before.close();

    const db = openDatabase(dataDir);
    try {
      expect(appliedVersions(db)).toEqual(MIGRATIONS.map((migration) => migration.version));
      expect(db.prepare('SELECT title FROM sessions WHERE id = ?').pluck().get('s1')).toBe('old');
      const plans = new SqlitePlanStore(db);
      plans.create({ sessionId: 's1', id: 'p', kind: 'planning', title: 'T', steps: [{ text: 'a' }, { text: 'b' }] });
      expect(() => plans.updateStep('s1', 'p', 0, { status: 'done' as never })).toThrow(/CHECK constraint/);
      expect(() => plans.create({ sessionId: 'nope', id: 'p', kind: 'planning', title: 'T', steps: [] })).toThrow(
        /FOREIGN KEY/,
      );
      db.prepare('DELETE FROM sessions WHERE id = ?').run('s1');
      expect(db.prepare('SELECT count(*) FROM plans').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM plan_steps').pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });
});
