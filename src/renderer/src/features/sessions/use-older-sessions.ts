import { useState } from 'react';
import type { SessionSummary } from '../../../../shared/contract.js';
import type { AppStore } from '../../state/app-store.js';

/** the store keeps the newest 200; older ones are fetched a page at a time */
export const PAGE_SIZE = 200;

/** The store's newest sessions followed by the older pages fetched on request. */
export function useOlderSessions(store: AppStore, sessions: SessionSummary[]) {
  const [older, setOlder] = useState<SessionSummary[]>([]);
  const [olderDone, setOlderDone] = useState(false);
  const known = new Set(sessions.map((summary) => summary.session.id));
  const listed = [...sessions, ...older.filter((summary) => !known.has(summary.session.id))];

  const loadMore = async () => {
    try {
      const page = await store.client.call('listSessions', { limit: PAGE_SIZE, offset: listed.length });
      setOlder((current) => [...current, ...page]);
      if (page.length < PAGE_SIZE) setOlderDone(true);
    } catch (error) {
      store.fail(error);
    }
  };
  const renamed = (session: SessionSummary['session']) =>
    setOlder((current) =>
      current.map((summary) => (summary.session.id === session.id ? { ...summary, session } : summary)),
    );
  const removed = (sessionId: string) =>
    setOlder((current) => current.filter((summary) => summary.session.id !== sessionId));

  return { listed, canLoadMore: !olderDone && listed.length >= PAGE_SIZE, loadMore, renamed, removed };
}
