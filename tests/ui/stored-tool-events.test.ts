import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CoreEventSchema } from '../../src/shared/events.js';
import { databaseFile } from '../../src/main/store/database.js';
import { openStore } from '../../src/main/store/store.js';
import { sessionViewFromEvents, type ToolItem } from '../../src/renderer/src/state/session-view.js';
import { newSession, tempDir } from '../store/store-fixtures.js';

/** Tool events as sessions saved them before tools declared their kind and structured result. */
const OLD_SHAPE_EVENTS = [
  {
    type: 'tool',
    callId: 'search-1',
    name: 'web_search',
    args: { query: 'manus' },
    status: 'done',
    output: '1 results for "manus" from duckduckgo:\n1. Manus\n   URL: https://manus.example/',
    durationMs: 12,
  },
  {
    type: 'tool',
    callId: 'browse-1',
    name: 'browser_use',
    args: { action: 'go_to_url', url: 'https://manus.example/' },
    status: 'done',
    output: 'Opened https://manus.example/',
    images: [{ mimeType: 'image/jpeg', data: '/9j/' }],
  },
];

describe('tool events saved before kinds', () => {
  it('load from SQLite and open in the view of the built-in tool that made them, their output kept', () => {
    const dataDir = tempDir();
    const store = openStore(dataDir);
    const session = newSession(store);
    store.close();
    // written as the old version wrote them: straight rows, without today's schema in the way
    const db = new Database(databaseFile(dataDir));
    const insert = db.prepare('INSERT INTO events (session_id, seq, type, ts, json) VALUES (?, ?, ?, ?, ?)');
    OLD_SHAPE_EVENTS.forEach((event, index) => {
      const seq = 100 + index;
      insert.run(
        session.id,
        seq,
        'tool',
        1_000 + index,
        JSON.stringify({ ...event, sessionId: session.id, seq, ts: 1 }),
      );
    });
    db.close();

    const reopened = openStore(dataDir);
    try {
      const events = reopened.listEvents(session.id).filter((event) => event.type === 'tool');
      expect(events).toHaveLength(2);
      for (const event of events) expect(CoreEventSchema.safeParse(event).success).toBe(true);

      const view = sessionViewFromEvents(session.id, events);
      const [search, browse] = view.items as ToolItem[];
      // no structured results were stored then: the search shows as text
      expect(search).toMatchObject({ toolKind: 'generic', status: 'done', output: OLD_SHAPE_EVENTS[0].output });
      expect(search.data).toBeUndefined();
      expect(browse).toMatchObject({ toolKind: 'browser', output: 'Opened https://manus.example/' });
      expect(browse.images).toHaveLength(1);
      // and its screenshot is in the browser panel, as it was when the session was recorded
      expect(view.screenshots).toHaveLength(1);
    } finally {
      reopened.close();
    }
  });
});
