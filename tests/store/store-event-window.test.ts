import { describe, expect, it } from 'vitest';
import type { PlanSnapshot } from '../../src/shared/events.js';
import { messageEvent, newSession, stamped, tempStore } from './store-fixtures.js';

function plan(title: string): PlanSnapshot {
  return { planId: 'p1', title, steps: [{ text: 'look', status: 'not_started', notes: '' }], text: title };
}

describe('Store event windows', () => {
  it('reads the last events of a session, and the ones before a seq, oldest first', () => {
    const { store } = tempStore();
    const session = newSession(store);
    const other = newSession(store, 'other');
    for (let index = 1; index <= 30; index += 1) {
      store.appendEvent(messageEvent(session.id, `event ${index}`));
      store.appendEvent(messageEvent(other.id, `other ${index}`));
    }
    expect(store.listEventsBefore(session.id, { limit: 5 }).map((event) => event.seq)).toEqual([26, 27, 28, 29, 30]);
    expect(store.listEventsBefore(session.id, { beforeSeq: 26, limit: 5 }).map((event) => event.seq)).toEqual([
      21, 22, 23, 24, 25,
    ]);
    expect(store.listEventsBefore(session.id, { beforeSeq: 3, limit: 5 }).map((event) => event.seq)).toEqual([1, 2]);
    expect(store.listEventsBefore(session.id, { beforeSeq: 1, limit: 5 })).toEqual([]);
    expect(store.listEventsBefore(session.id, { limit: 5 }).every((event) => event.sessionId === session.id)).toBe(
      true,
    );
    // the windows together are exactly the session's events
    const paged = [
      ...store.listEventsBefore(session.id, { beforeSeq: 11, limit: 100 }),
      ...store.listEventsBefore(session.id, { beforeSeq: 31, limit: 20 }),
    ];
    expect(paged).toEqual(store.listEvents(session.id));
  });

  it('outlines a session: its row, seq range and count, and its latest plan with the steps after it', () => {
    const { store } = tempStore();
    const session = newSession(store, 'Planned');
    store.appendEvent(messageEvent(session.id, 'task', { role: 'user' }));
    store.appendEvent(stamped({ type: 'plan', sessionId: session.id, action: 'created', plan: plan('first') }));
    store.appendEvent(
      stamped({ type: 'step', sessionId: session.id, action: 'started', planId: 'p1', stepIndex: 0, description: 'a' }),
    );
    store.appendEvent(stamped({ type: 'plan', sessionId: session.id, action: 'updated', plan: plan('revised') }));
    for (let index = 0; index < 50; index += 1) store.appendEvent(messageEvent(session.id, `work ${index}`));
    store.appendEvent(
      stamped({
        type: 'step',
        sessionId: session.id,
        action: 'completed',
        planId: 'p1',
        stepIndex: 0,
        description: 'a',
        result: 'done',
      }),
    );
    store.appendEvent(messageEvent(session.id, 'last'));

    const outline = store.eventOutline(session.id);
    expect(outline).toMatchObject({ session: { id: session.id, title: 'Planned' }, firstSeq: 1, lastSeq: 56 });
    expect(outline?.eventCount).toBe(store.listEvents(session.id).length);
    expect(outline?.planEvents.map((event) => [event.type, event.seq])).toEqual([
      ['plan', 4],
      ['step', 55],
    ]);
    expect(outline?.planEvents[0]).toMatchObject({ plan: { title: 'revised' } });
  });

  it('outlines a session without events or plan, and knows no outline of a missing session', () => {
    const { store } = tempStore();
    const session = newSession(store);
    expect(store.eventOutline(session.id)).toMatchObject({ firstSeq: 0, lastSeq: 0, eventCount: 0, planEvents: [] });
    store.appendEvent(messageEvent(session.id, 'hello'));
    expect(store.eventOutline(session.id)).toMatchObject({ firstSeq: 1, lastSeq: 1, eventCount: 1, planEvents: [] });
    expect(store.eventOutline('no-such-session')).toBeUndefined();
  });
});
