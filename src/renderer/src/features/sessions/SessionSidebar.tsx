import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionSummary } from '../../../../shared/contract.js';
import type { AppStore } from '../../state/app-store.js';
import { ConfirmDialog } from '../common/ConfirmDialog.js';
import { downloadFile } from '../common/download.js';
import { keysText } from '../../shortcuts/shortcuts.js';
import { useShortcut } from '../../shortcuts/use-shortcut.js';
import { SessionRow } from './SessionRow.js';
import { useSessionSearch, type SessionHit } from './use-session-search.js';
import { useOlderSessions } from './use-older-sessions.js';
import { useTypedBeforeLoad } from '../../lib/use-typed-before-load.js';
import './sessions.css';

/** The sessions, newest first: status badges, full-text search, rename, export, delete. */
export function SessionSidebar({
  store,
  sessions,
  listed,
  activeId,
  searchSignal,
  onOpenSettings,
}: {
  store: AppStore;
  sessions: SessionSummary[];
  /** whether `sessions` came from the core yet: before, no "no sessions yet" is said */
  listed: boolean;
  activeId?: string;
  /** focus the search box (Ctrl+K, the menu) */
  searchSignal?: number;
  onOpenSettings: () => void;
}) {
  const { t } = useTranslation();
  const search = useSessionSearch(store, sessions);
  const older = useOlderSessions(store, sessions);
  const [renaming, setRenaming] = useState<string>();
  const [menuFor, setMenuFor] = useState<string>();
  const [deleting, setDeleting] = useState<SessionSummary>();
  const searchRef = useRef<HTMLInputElement>(null);
  useTypedBeforeLoad(searchRef, search.query, search.setQuery);

  useEffect(() => {
    if (searchSignal) searchRef.current?.focus();
  }, [searchSignal]);

  // an open row menu closes on the next click anywhere, and on Esc
  const closeMenu = useCallback(() => setMenuFor(undefined), []);
  useEffect(() => {
    if (!menuFor) return;
    window.addEventListener('click', closeMenu);
    return () => window.removeEventListener('click', closeMenu);
  }, [menuFor, closeMenu]);
  useShortcut('closeDialog', menuFor ? closeMenu : undefined);

  const rename = async (sessionId: string, title: string) => {
    setRenaming(undefined);
    if (!title.trim()) return;
    try {
      // the header and the newest sessions follow the rename's event; the older pages are this list's own
      const renamed = await store.client.call('renameSession', { sessionId, title: title.trim() });
      older.renamed(renamed);
    } catch (error) {
      store.fail(error);
    }
  };

  const exportAs = async (sessionId: string, format: 'md' | 'json') => {
    try {
      const exported = await store.client.call('exportSession', { sessionId, format });
      downloadFile(exported.filename, exported.mimeType, exported.content);
    } catch (error) {
      store.fail(error);
    }
  };

  const resume = async (sessionId: string) => {
    await store.openSession(sessionId);
    await store.resume();
  };

  const remove = async (sessionId: string) => {
    setDeleting(undefined);
    try {
      await store.client.call('deleteSession', { sessionId });
      if (store.getState().activeId === sessionId) store.newSession();
      await store.refreshSessions();
      search.dropHit(sessionId);
      older.removed(sessionId);
    } catch (error) {
      store.fail(error);
    }
  };

  // a hit shows the session as it is now (renamed, finished since the search), not as it was when found
  const current = new Map(older.listed.map((summary) => [summary.session.id, summary]));
  const rows: SessionHit[] =
    search.hits?.map((hit) => ({ ...hit, summary: current.get(hit.summary.session.id) ?? hit.summary })) ??
    older.listed.map((summary) => ({ summary }));
  return (
    <nav className="sidebar" aria-label={t('app.sessions')}>
      <div className="sidebar-head">
        <span className="brand">
          <span className="brand-mark" aria-hidden>
            ◆
          </span>
          {t('app.name')}
        </span>
        <button
          type="button"
          className="primary small"
          onClick={() => store.newSession()}
          data-testid="new-session"
          title={keysText('newSession')}
        >
          + {t('app.newSession')}
        </button>
      </div>
      <div className="sidebar-search">
        <input
          ref={searchRef}
          type="search"
          value={search.query}
          placeholder={t('sessions.search')}
          onChange={(event) => search.setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') search.setQuery('');
          }}
          aria-label={t('sessions.search')}
          data-testid="session-search"
        />
      </div>
      <div className="sidebar-label">
        {search.hits ? t('sessions.results', { count: search.hits.length }) : t('app.sessions')}
      </div>
      <ul className="session-list" data-testid="session-list">
        {rows.length === 0 && (search.hits || listed) ? (
          <li className="sidebar-empty">{search.hits ? t('sessions.noResults') : t('app.noSessions')}</li>
        ) : null}
        {rows.map(({ summary, snippet }) => {
          const sessionId = summary.session.id;
          return (
            <SessionRow
              key={sessionId}
              summary={summary}
              snippet={snippet}
              active={sessionId === activeId}
              renaming={renaming === sessionId}
              menuOpen={menuFor === sessionId}
              actions={{
                open: () => void store.openSession(sessionId),
                startRename: () => setRenaming(sessionId),
                rename: (title) => void rename(sessionId, title),
                cancelRename: () => setRenaming(undefined),
                toggleMenu: () => setMenuFor(menuFor === sessionId ? undefined : sessionId),
                resume: () => void resume(sessionId),
                exportAs: (format) => void exportAs(sessionId, format),
                askDelete: () => setDeleting(summary),
              }}
            />
          );
        })}
        {!search.hits && older.canLoadMore ? (
          <li>
            <button type="button" className="ghost small load-more" onClick={() => void older.loadMore()}>
              {t('sessions.loadMore')}
            </button>
          </li>
        ) : null}
      </ul>
      <div className="sidebar-foot">
        <button type="button" className="ghost sidebar-settings" onClick={onOpenSettings} data-testid="open-settings">
          ⚙ {t('settings.title')}
        </button>
      </div>
      {deleting ? (
        <ConfirmDialog
          title={t('sessions.deleteTitle', { title: deleting.session.title })}
          body={deleting.running ? t('sessions.deleteRunning') : t('sessions.deleteBody')}
          confirmLabel={t('common.delete')}
          danger
          onConfirm={() => void remove(deleting.session.id)}
          onCancel={() => setDeleting(undefined)}
        />
      ) : null}
    </nav>
  );
}
