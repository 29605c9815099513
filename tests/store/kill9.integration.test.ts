import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CoreEventSchema } from '../../src/shared/events.js';
import { openStore } from '../../src/main/store/store.js';
import { newSession, tempDir } from './store-fixtures.js';

const CHILD = path.join(import.meta.dirname, 'fixtures', 'append-loop.ts');
const APPENDS_BEFORE_KILL = 1500;
// a child that is too slow is killed anyway, so that it never outlives the test; the count check then fails
const CHILD_DEADLINE_MS = 40_000;

/** where the child's store writes its batches: on its own connection, or on its event writer thread */
type Writing = 'here' | 'background';

/** Runs the emitting child until its subscriber saw `count` more events, kills it with SIGKILL, returns the last seq seen. */
function appendThenKill(dataDir: string, sessionId: string, count: number, writing: Writing): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, sessionId, writing], {
      cwd: path.resolve(import.meta.dirname, '..', '..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let reported = 0;
    let lastSeq = 0;
    let pending = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        lastSeq = Number(line);
        reported += 1;
      }
      if (reported >= count && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    const deadline = setTimeout(() => child.kill('SIGKILL'), CHILD_DEADLINE_MS);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(deadline);
      if (signal === 'SIGKILL') resolve(lastSeq);
      else reject(new Error(`append-loop exited on its own (code ${code}): ${stderr}`));
    });
  });
}

function verifyAfterCrash(dataDir: string, sessionId: string, lastReportedSeq: number): number {
  const store = openStore(dataDir);
  try {
    expect(store.db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
    const events = store.listEvents(sessionId);
    // every event a subscriber saw before the kill is there, maybe more committed but not yet shown at the kill
    expect(events.length).toBeGreaterThanOrEqual(lastReportedSeq);
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index + 1));
    for (const event of events) expect(CoreEventSchema.safeParse(event).success).toBe(true);
    const rawRows = store.db.prepare('SELECT json FROM events WHERE session_id = ?').pluck().all(sessionId) as string[];
    for (const json of rawRows) expect(() => JSON.parse(json)).not.toThrow();
    const bigOutputs = events.filter((event) => event.type === 'tool');
    for (const event of bigOutputs) expect(event.type === 'tool' && event.output?.length).toBe(64 * 1024);
    expect(store.loadMemory(sessionId, 'manus').length).toBeGreaterThan(0);

    expect(store.getSession(sessionId)?.status).toBe('running');
    expect(store.markRunningAsInterrupted()).toEqual([sessionId]);
    expect(store.getSession(sessionId)?.status).toBe('interrupted');
    // whole messages queued for the search index by the dead process are indexed on open
    const lastWhole = [...events].reverse().find((event) => event.type === 'message' && !event.delta);
    if (lastWhole?.type === 'message') {
      expect(store.searchSessions(lastWhole.text.split(' ')[1]).map((hit) => hit.session.id)).toEqual([sessionId]);
    }
    return events.length;
  } finally {
    store.close();
  }
}

describe('kill -9 in the middle of a burst of group-committed events', () => {
  it.each<Writing>(['here', 'background'])(
    'loses no event a subscriber saw, leaves no half row, and the session comes back interrupted (written %s)',
    async (writing) => {
      const dataDir = tempDir();
      const setup = openStore(dataDir);
      const sessionId = newSession(setup, 'crash test').id;
      setup.close();

      const firstSeq = await appendThenKill(dataDir, sessionId, APPENDS_BEFORE_KILL, writing);
      expect(firstSeq).toBeGreaterThanOrEqual(APPENDS_BEFORE_KILL);
      const afterFirst = verifyAfterCrash(dataDir, sessionId, firstSeq);

      // a second run continues the same session after the crash, from the next seq
      const secondSeq = await appendThenKill(dataDir, sessionId, APPENDS_BEFORE_KILL, writing);
      expect(secondSeq).toBeGreaterThan(afterFirst);
      verifyAfterCrash(dataDir, sessionId, secondSeq);
    },
    120_000,
  );
});
