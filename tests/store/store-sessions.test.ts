import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/store.js';
import { InvalidRecordError, SessionNotFoundError } from '../../src/main/store/store-errors.js';
import type { NewSession } from '../../src/main/store/store-api.js';
import { newSession, tempStore } from './store-fixtures.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Store sessions', () => {
  it('creates a session with defaults and reads it back', () => {
    const { store } = tempStore();
    const created = store.createSession({ title: 'Trip plan', mode: 'planning', model: 'gpt-4o', workspace: '/w' });
    expect(created).toMatchObject({
      title: 'Trip plan',
      status: 'idle',
      mode: 'planning',
      model: 'gpt-4o',
      workspace: '/w',
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    });
    expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.createdAt).toBe(created.updatedAt);
    expect(store.getSession(created.id)).toEqual(created);
    expect(store.getSession('nope')).toBeUndefined();
  });

  it('keeps a caller-chosen id and refuses a duplicate with a clear error', () => {
    const { store } = tempStore();
    newSession(store, 'one', { id: 'fixed-id' });
    expect(store.getSession('fixed-id')?.title).toBe('one');
    expect(() => newSession(store, 'two', { id: 'fixed-id' })).toThrow(/session with id "fixed-id" already exists/);
  });

  it('rejects invalid sessions and patches without writing anything', () => {
    const { store } = tempStore();
    const bad = { title: 'x', mode: 'freestyle', model: 'm', workspace: '/w' } as unknown as NewSession;
    expect(() => store.createSession(bad)).toThrow(InvalidRecordError);
    expect(store.listSessions()).toEqual([]);
    const session = newSession(store);
    expect(() => store.updateSession(session.id, { status: 'exploded' as never })).toThrow(InvalidRecordError);
    expect(store.getSession(session.id)?.status).toBe('idle');
  });

  it('updates only the fields given, stores usage with cost, and bumps updatedAt', async () => {
    const { store } = tempStore();
    const session = newSession(store, 'before');
    await sleep(5);
    const renamed = store.updateSession(session.id, { title: 'after' });
    expect(renamed).toMatchObject({ title: 'after', status: 'idle', model: 'gpt-test' });
    expect(renamed.updatedAt).toBeGreaterThan(session.updatedAt);
    const running = store.updateSession(session.id, {
      status: 'running',
      usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15, cost: 0.25 },
    });
    expect(running).toMatchObject({ title: 'after', status: 'running' });
    expect(running.usage).toEqual({ promptTokens: 10, completionTokens: 5, totalTokens: 15, cost: 0.25 });
    const noCost = store.updateSession(session.id, { usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } });
    expect(noCost.usage).toEqual({ promptTokens: 1, completionTokens: 1, totalTokens: 2 });
    expect(store.updateSession(session.id, { mode: 'plan_act', workspace: '/other', model: 'o3' })).toMatchObject({
      mode: 'plan_act',
      workspace: '/other',
      model: 'o3',
      title: 'after',
    });
    expect(() => store.updateSession('missing', { title: 'x' })).toThrow(SessionNotFoundError);
  });

  it('lists newest first by updatedAt, pages with limit/offset and filters by status', async () => {
    const { store } = tempStore();
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      ids.push(newSession(store, `s${index}`).id);
      await sleep(2);
    }
    expect(store.listSessions().map((session) => session.title)).toEqual(['s4', 's3', 's2', 's1', 's0']);
    await sleep(2);
    store.updateSession(ids[1], { status: 'finished' });
    expect(store.listSessions().map((session) => session.title)).toEqual(['s1', 's4', 's3', 's2', 's0']);
    expect(store.listSessions({ limit: 2 }).map((session) => session.title)).toEqual(['s1', 's4']);
    expect(store.listSessions({ limit: 2, offset: 2 }).map((session) => session.title)).toEqual(['s3', 's2']);
    expect(store.listSessions({ offset: 4 }).map((session) => session.title)).toEqual(['s0']);
    expect(store.listSessions({ status: 'finished' }).map((session) => session.id)).toEqual([ids[1]]);
    expect(store.listSessions({ status: 'failed' })).toEqual([]);
  });

  it('marks sessions left running as interrupted, and only those', () => {
    const { store } = tempStore();
    const running = newSession(store, 'running');
    const finished = newSession(store, 'finished');
    store.updateSession(running.id, { status: 'running' });
    store.updateSession(finished.id, { status: 'finished' });
    expect(store.markRunningAsInterrupted()).toEqual([running.id]);
    expect(store.getSession(running.id)?.status).toBe('interrupted');
    expect(store.getSession(finished.id)?.status).toBe('finished');
    expect(store.markRunningAsInterrupted()).toEqual([]);
  });

  it('keeps everything across close and reopen', () => {
    const { store, dataDir } = tempStore();
    const session = newSession(store, 'persisted');
    store.close();
    const reopened = openStore(dataDir);
    try {
      expect(reopened.getSession(session.id)).toEqual(session);
    } finally {
      reopened.close();
    }
  });

  it('deleteSession of an unknown id is a no-op', () => {
    const { store } = tempStore();
    const kept = newSession(store);
    store.deleteSession('unknown');
    expect(store.listSessions().map((session) => session.id)).toEqual([kept.id]);
  });
});
