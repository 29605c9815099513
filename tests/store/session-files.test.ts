import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sessionWorkspaceDir } from '../../src/main/store/data-dir.js';
import { deleteSessionEverywhere } from '../../src/main/store/session-files.js';
import { SessionNotFoundError } from '../../src/main/store/store-errors.js';
import { messageEvent, newSession, tempDir, tempStore } from './store-fixtures.js';

function rowCounts(store: ReturnType<typeof tempStore>['store'], sessionId: string) {
  const count = (sql: string) => store.db.prepare(sql).pluck().get(sessionId);
  return {
    sessions: count('SELECT count(*) FROM sessions WHERE id = ?'),
    events: count('SELECT count(*) FROM events WHERE session_id = ?'),
    memory: count('SELECT count(*) FROM agent_memory WHERE session_id = ?'),
    messageIndex: count('SELECT count(*) FROM message_fts WHERE session_id = ?'),
    queue: count('SELECT count(*) FROM message_fts_queue WHERE session_id = ?'),
    titleIndex: count('SELECT count(*) FROM title_fts WHERE session_id = ?'),
  };
}

describe('deleting a session', () => {
  it('cascades to events, memory, search entries and queued index entries, and leaves other sessions alone', () => {
    const { store } = tempStore();
    const doomed = newSession(store, 'doomed');
    const kept = newSession(store, 'kept');
    for (const session of [doomed, kept]) {
      store.appendEvent(messageEvent(session.id, 'searchable words'));
      store.appendMemory(session.id, 'manus', [{ role: 'user', content: 'hi' }]);
    }
    store.searchSessions('searchable');
    store.appendEvent(messageEvent(doomed.id, 'still queued'));
    expect(rowCounts(store, doomed.id)).toEqual({
      sessions: 1,
      events: 2,
      memory: 1,
      messageIndex: 1,
      queue: 1,
      titleIndex: 1,
    });
    store.deleteSession(doomed.id);
    expect(rowCounts(store, doomed.id)).toEqual({
      sessions: 0,
      events: 0,
      memory: 0,
      messageIndex: 0,
      queue: 0,
      titleIndex: 0,
    });
    expect(rowCounts(store, kept.id)).toEqual({
      sessions: 1,
      events: 1,
      memory: 1,
      messageIndex: 1,
      queue: 0,
      titleIndex: 1,
    });
    expect(store.searchSessions('searchable').map((hit) => hit.session.id)).toEqual([kept.id]);
  });

  it('a re-created session with the same id starts again at seq 1', () => {
    const { store } = tempStore();
    newSession(store, 'first', { id: 'same' });
    store.appendEvent(messageEvent('same', 'a'));
    store.deleteSession('same');
    newSession(store, 'second', { id: 'same' });
    expect(store.appendEvent(messageEvent('same', 'b')).seq).toBe(1);
  });
});

describe('deleteSessionEverywhere', () => {
  it("removes the rows and the session's own workspace folder", () => {
    const { store, dataDir } = tempStore();
    const id = 'own-ws';
    const workspace = sessionWorkspaceDir(dataDir, id);
    fs.mkdirSync(path.join(workspace, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(workspace, 'sub', 'report.md'), '# report');
    newSession(store, 'own', { id, workspace });
    expect(deleteSessionEverywhere(store, dataDir, id)).toEqual({ sessionId: id, workspace, workspaceDeleted: true });
    expect(fs.existsSync(workspace)).toBe(false);
    expect(store.getSession(id)).toBeUndefined();
  });

  it('never deletes a folder the user chose, and says so', () => {
    const { store, dataDir } = tempStore();
    const chosen = tempDir('manus-user-folder-');
    fs.writeFileSync(path.join(chosen, 'precious.txt'), 'keep me');
    const session = newSession(store, 'user folder', { workspace: chosen });
    const result = deleteSessionEverywhere(store, dataDir, session.id);
    expect(result.workspaceDeleted).toBe(false);
    expect(result.workspaceKeptBecause).toMatch(/chosen by the user/);
    expect(fs.readFileSync(path.join(chosen, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(store.getSession(session.id)).toBeUndefined();
  });

  it('does not follow a symlinked workspace into the folder it points to', () => {
    const { store, dataDir } = tempStore();
    const outside = tempDir('manus-outside-');
    fs.writeFileSync(path.join(outside, 'keep.txt'), 'outside');
    const id = 'linked';
    const workspace = sessionWorkspaceDir(dataDir, id);
    fs.mkdirSync(path.dirname(workspace), { recursive: true });
    fs.symlinkSync(outside, workspace);
    newSession(store, 'linked', { id, workspace });
    expect(deleteSessionEverywhere(store, dataDir, id).workspaceDeleted).toBe(true);
    expect(fs.existsSync(workspace)).toBe(false);
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('outside');
  });

  it('reports a missing own folder and an unknown session', () => {
    const { store, dataDir } = tempStore();
    const id = 'no-folder';
    newSession(store, 'x', { id, workspace: sessionWorkspaceDir(dataDir, id) });
    expect(deleteSessionEverywhere(store, dataDir, id)).toMatchObject({
      workspaceDeleted: false,
      workspaceKeptBecause: 'the folder did not exist',
    });
    expect(() => deleteSessionEverywhere(store, dataDir, id)).toThrow(SessionNotFoundError);
  });
});
