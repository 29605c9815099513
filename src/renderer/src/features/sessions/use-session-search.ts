import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../../../shared/contract.js';
import type { AppStore } from '../../state/app-store.js';

const SEARCH_DEBOUNCE_MS = 200;
const SEARCH_LIMIT = 50;

export interface SessionHit {
  summary: SessionSummary;
  snippet?: string;
}

/** Full-text search over the sessions, debounced; `hits` is undefined while the box is empty. */
export function useSessionSearch(store: AppStore, sessions: SessionSummary[]) {
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<SessionHit[]>();

  useEffect(() => {
    const trimmed = query.trim();
    if (!trimmed) return;
    let current = true;
    const timer = setTimeout(() => {
      store.client.call('searchSessions', { query: trimmed, limit: SEARCH_LIMIT }).then(
        (found) => {
          if (!current) return;
          setHits(
            found.map((hit) => ({
              summary: sessions.find((summary) => summary.session.id === hit.session.id) ?? {
                session: hit.session,
                running: false,
              },
              snippet: hit.snippet,
            })),
          );
        },
        (error: unknown) => current && store.fail(error),
      );
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, sessions, store]);

  const dropHit = (sessionId: string) =>
    setHits((current) => current?.filter((hit) => hit.summary.session.id !== sessionId));

  // hits of an earlier query are not shown once the box is cleared
  return { query, setQuery, hits: query.trim() ? hits : undefined, dropHit };
}
