import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appliedVersions, openDatabase } from '../../src/main/store/database.js';
import { MIGRATIONS } from '../../src/main/store/migrations/index.js';
import { SqlitePlanStore } from '../../src/main/store/plan-store.js';
import { Store } from '../../src/main/store/store.js';

let dataDir = '';
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const BEFORE_WAITING = MIGRATIONS.filter((migration) => migration.version < 5);

describe('migration 5 (waiting status, flow choices)', () => {
  it('rebuilds sessions keeping every row and what hangs on it: events, memory, plans, search, triggers', () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-waiting-migration-'));
    const before = openDatabase(dataDir, BEFORE_WAITING);
    expect(() =>
      before
        .prepare(
          `INSERT INTO sessions (id, title, status, mode, model, workspace, created_at, updated_at)
           VALUES ('w', 't', 'waiting', 'agent', 'm', '/w', 1, 1)`,
        )
        .run(),
    ).toThrow(/CHECK constraint/);
    // the tables as version 4 left them: the Store of today reads columns they do not have yet
    before.exec(`
      INSERT INTO sessions (id, title, status, mode, model, workspace, created_at, updated_at)
        VALUES ('s1', 'papaya report', 'idle', 'planning', 'm', '/tmp/w', 1, 1);
      INSERT INTO events (session_id, seq, type, ts, json)
        VALUES ('s1', 1, 'message', 1, '{"type":"message","sessionId":"s1","seq":1,"ts":1,"messageId":"m1","role":"user","text":"mango","delta":false}');
      INSERT INTO agent_memory (session_id, agent, idx, json) VALUES ('s1', 'manus', 0, '{"role":"user","content":"hello"}');
    `);
    new SqlitePlanStore(before).create({
      sessionId: 's1',
      id: 'p',
      kind: 'planning',
      title: 'T',
      steps: [{ text: 'a' }],
    });
    before.close();

    const store = new Store(openDatabase(dataDir));
    try {
      expect(appliedVersions(store.db)).toEqual(MIGRATIONS.map((migration) => migration.version));
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.getSession('s1')).toMatchObject({ title: 'papaya report', mode: 'planning', status: 'idle' });
      expect(store.getSession('s1')).not.toHaveProperty('agents');
      expect(store.listEvents('s1')).toHaveLength(1);
      expect(store.loadMemory('s1', 'manus')).toHaveLength(1);
      expect(store.plans.list('s1')).toHaveLength(1);
      expect(store.searchSessions('papaya').map((hit) => hit.session.id)).toEqual(['s1']);
      expect(store.searchSessions('mango').map((hit) => hit.session.id)).toEqual(['s1']);

      const waiting = store.updateSession('s1', { status: 'waiting', agents: ['manus', 'swe'], parallel: 3 });
      expect(waiting).toMatchObject({ status: 'waiting', agents: ['manus', 'swe'], parallel: 3 });
      expect(store.listSessions({ status: 'waiting' }).map((session) => session.id)).toEqual(['s1']);
      store.updateSession('s1', { title: 'kiwi notes' });
      expect(store.searchSessions('kiwi').map((hit) => hit.session.id)).toEqual(['s1']);
      // the append-only guard on events still names the rebuilt table
      expect(() => store.db.prepare(`DELETE FROM events WHERE session_id = 's1'`).run()).toThrow(/append-only/);
      expect(() => store.updateSession('s1', { parallel: 0 })).toThrow();

      store.deleteSession('s1');
      for (const table of ['events', 'agent_memory', 'plans', 'title_fts', 'message_fts']) {
        expect(store.db.prepare(`SELECT count(*) FROM ${table}`).pluck().get(), table).toBe(0);
      }
      expect(store.db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
    } finally {
      store.close();
    }
  });
});
