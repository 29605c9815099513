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
  rowid: number;
}

/**
 * Full-text search over session titles and message text (the FTS5 tables the triggers of 001-initial keep current).
 * Sessions whose title matches come first, then sessions by their most recent matching message: recency rather than
 * bm25, because ranking computes a score for every match (tens of ms for a common word over 1M words) while walking
 * the index newest-first stops as soon as enough sessions were found.
 */
export class SessionSearch {
  readonly indexQueue: MessageIndexQueue;
  private readonly titleHits;
  private readonly recentMessageHits;
  private readonly messageSnippet;

  constructor(db: SqliteDatabase) {
    this.indexQueue = new MessageIndexQueue(db);
    this.titleHits = db.prepare<[string, number], TitleHitRow>(
      `SELECT session_id, highlight(title_fts, 0, '${MATCH_OPEN}', '${MATCH_CLOSE}') AS snippet
       FROM title_fts WHERE title_fts MATCH ? ORDER BY rank LIMIT ?`,
    );
    // message_fts rowids grow as messages are indexed, so rowid order is (close to) time order
    this.recentMessageHits = db.prepare<[string], MessageHitRow>(
      'SELECT session_id, rowid FROM message_fts WHERE message_fts MATCH ? ORDER BY rowid DESC',
    );
    // CAST: better-sqlite3 binds JS numbers as REAL, and FTS5 then silently ignores the rowid constraint
    this.messageSnippet = db
      .prepare<[string, number], string>(
        `SELECT snippet(message_fts, 0, '${MATCH_OPEN}', '${MATCH_CLOSE}', '${ELLIPSIS}', ${SNIPPET_TOKENS})
         FROM message_fts WHERE message_fts MATCH ? AND rowid = CAST(? AS INTEGER)`,
      )
      .pluck();
  }

  /** Whole-word matches first; when they are fewer than `limit`, the last word also matches as a prefix. */
  search(userQuery: string, limit: number): SearchMatch[] {
    const exact = toFtsQuery(userQuery, { lastWordAsPrefix: false });
    if (exact === undefined || limit <= 0) return [];
    this.indexQueue.flushIfQueued();
    const matches = this.sessionsMatching(exact, limit);
    if (matches.length >= limit) return matches;
    const found = new Set(matches.map((match) => match.sessionId));
    const prefixed = toFtsQuery(userQuery, { lastWordAsPrefix: true }) ?? exact;
    for (const match of this.sessionsMatching(prefixed, limit)) {
      if (!found.has(match.sessionId) && matches.length < limit) matches.push(match);
    }
    return matches;
  }

  private sessionsMatching(query: string, limit: number): SearchMatch[] {
    const titleHits = this.titleHits.all(query, limit);
    const order = titleHits.map((hit) => hit.session_id);
    const titleSnippets = new Map(titleHits.map((hit) => [hit.session_id, hit.snippet]));
    const latestMessage = new Map<string, number>();
    if (order.length < limit) {
      for (const hit of this.recentMessageHits.iterate(query)) {
        if (latestMessage.has(hit.session_id)) continue;
        latestMessage.set(hit.session_id, hit.rowid);
        if (!titleSnippets.has(hit.session_id)) order.push(hit.session_id);
        // leaving the loop early ends the statement; the newest-first walk never reads older matches
        if (order.length >= limit) break;
      }
    }
    return order.slice(0, limit).map((sessionId) => {
      const rowid = latestMessage.get(sessionId);
      const snippet = rowid === undefined ? titleSnippets.get(sessionId) : this.messageSnippet.get(query, rowid);
      return { sessionId, snippet: snippet ?? '' };
    });
  }
}
