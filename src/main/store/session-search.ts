import type { SqliteDatabase } from './database.js';
import { MATCH_CLOSE, MATCH_OPEN, toFtsQuery } from './fts-query.js';
import { MessageIndexQueue } from './message-index.js';

const SNIPPET_TOKENS = 16;
const ELLIPSIS = '…';

/** A session that matched, with the excerpt to show; best matches first. */
export interface SearchMatch {
  sessionId: string;
  snippet: string;
}

interface TitleHitRow {
  session_id: string;
  snippet: string;
}
interface MessageHitRow {
  session_id: string;
  hit_rowid: number;
}

/** Full-text search over session titles and message text (the FTS5 tables the triggers of 001-initial keep current). */
export class SessionSearch {
  private readonly titleHits;
  private readonly messageHits;
  private readonly messageSnippet;

  readonly indexQueue: MessageIndexQueue;

  constructor(db: SqliteDatabase) {
    this.indexQueue = new MessageIndexQueue(db);
    this.titleHits = db.prepare<[string, number], TitleHitRow>(
      `SELECT session_id, highlight(title_fts, 0, '${MATCH_OPEN}', '${MATCH_CLOSE}') AS snippet
       FROM title_fts WHERE title_fts MATCH ? ORDER BY rank LIMIT ?`,
    );
    // one row per session: the bare `rowid` comes from the row holding min(rank), i.e. the session's best message
    this.messageHits = db.prepare<[string, number], MessageHitRow>(
      `SELECT session_id, rowid AS hit_rowid, min(rank) AS best
       FROM message_fts WHERE message_fts MATCH ? GROUP BY session_id ORDER BY best LIMIT ?`,
    );
    this.messageSnippet = db
      .prepare<[string, number], string>(
        `SELECT snippet(message_fts, 0, '${MATCH_OPEN}', '${MATCH_CLOSE}', '${ELLIPSIS}', ${SNIPPET_TOKENS})
         FROM message_fts WHERE message_fts MATCH ? AND rowid = ?`,
      )
      .pluck();
  }

  /** Title matches rank first; a session's snippet comes from its best message when one matched. */
  search(userQuery: string, limit: number): SearchMatch[] {
    const query = toFtsQuery(userQuery);
    if (query === undefined || limit <= 0) return [];
    this.indexQueue.flush();
    const snippets = new Map<string, string>();
    for (const hit of this.messageHits.all(query, limit)) {
      snippets.set(hit.session_id, this.messageSnippet.get(query, hit.hit_rowid) ?? '');
    }
    const order: string[] = [];
    for (const hit of this.titleHits.all(query, limit)) {
      order.push(hit.session_id);
      if (!snippets.has(hit.session_id)) snippets.set(hit.session_id, hit.snippet);
    }
    for (const sessionId of snippets.keys()) {
      if (!order.includes(sessionId)) order.push(sessionId);
    }
    return order.slice(0, limit).map((sessionId) => ({ sessionId, snippet: snippets.get(sessionId) ?? '' }));
  }
}
