import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionSummary } from '../../../../shared/contract.js';
import type { AppStore } from '../../state/app-store.js';
import { ConfirmDialog } from '../common/ConfirmDialog.js';
import { downloadFile } from '../common/download.js';
import { relativeTime } from './relative-time.js';
import { Snippet } from './Snippet.js';
import { keysText } from '../../shortcuts/shortcuts.js';
import './sessions.css';

const SEARCH_DEBOUNCE_MS = 200;
/** the store keeps the newest 200; older ones are fetched a page at a time */
const PAGE_SIZE = 200;

interface Hit {
  summary: SessionSummary;
  snippet?: string;
}

/** The sessions, newest first: status badges, full-text search, rename, export, delete. */
export function SessionSidebar({
  store,
  sessions,
  activeId,
  searchSignal,
  onOpenSettings,
}: {
  store: AppStore;
  sessions: SessionSummary[];
  activeId?: string;
  /** focus the search box (Ctrl+K, the menu) */
  searchSignal?: number;
  onOpenSettings: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<Hit[]>();
  const [renaming, setRenaming] = useState<string>();
  const [menuFor, setMenuFor] = useState<string>();
  const [deleting, setDeleting] = useState<SessionSummary>();
  const searchRef = useRef<HTMLInputElement>(null);
  const [older, setOlder] = useState<SessionSummary[]>([]);
  const [olderDone, setOlderDone] = useState(false);

  useEffect(() => {
    if (searchSignal) searchRef.current?.focus();
  }, [searchSignal]);

  useEffect(() => {
    const trimmed = query.trim();
    if (!trimmed) return;
    let current = true;
    const timer = setTimeout(() => {
      store.client.call('searchSessions', { query: trimmed, limit: 50 }).then(
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

  useEffect(() => {
    if (!menuFor) return;
    const close = () => setMenuFor(undefined);
    window.addEventListener('click', close);
    return () => window.removeEventListener('click', close);
  }, [menuFor]);

  const rename = async (sessionId: string, title: string) => {
    setRenaming(undefined);
    if (!title.trim()) return;
    try {
      const renamed = await store.client.call('renameSession', { sessionId, title: title.trim() });
      await store.refreshSessions();
      setOlder((current) =>
        current.map((summary) => (summary.session.id === sessionId ? { ...summary, session: renamed } : summary)),
      );
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
      setHits((current) => current?.filter((hit) => hit.summary.session.id !== sessionId));
      setOlder((current) => current.filter((summary) => summary.session.id !== sessionId));
    } catch (error) {
      store.fail(error);
    }
  };

  // hits of an earlier query are not shown once the box is cleared
  const shownHits = query.trim() ? hits : undefined;
  const known = new Set(sessions.map((summary) => summary.session.id));
  const listed = [...sessions, ...older.filter((summary) => !known.has(summary.session.id))];
  const rows: Hit[] = shownHits ?? listed.map((summary) => ({ summary }));
  const canLoadMore = !shownHits && !olderDone && listed.length >= PAGE_SIZE;

  const loadMore = async () => {
    try {
      const page = await store.client.call('listSessions', { limit: PAGE_SIZE, offset: listed.length });
      setOlder((current) => [...current, ...page]);
      if (page.length < PAGE_SIZE) setOlderDone(true);
    } catch (error) {
      store.fail(error);
    }
  };
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
          value={query}
          placeholder={t('sessions.search')}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') setQuery('');
          }}
          aria-label={t('sessions.search')}
          data-testid="session-search"
        />
      </div>
      <div className="sidebar-label">
        {shownHits ? t('sessions.results', { count: shownHits.length }) : t('app.sessions')}
      </div>
      <ul className="session-list" data-testid="session-list">
        {rows.length === 0 ? (
          <li className="sidebar-empty">{shownHits ? t('sessions.noResults') : t('app.noSessions')}</li>
        ) : null}
        {rows.map(({ summary: { session, running }, snippet }) => {
          const status = running ? 'running' : session.status;
          return (
            <li key={session.id} className="session-row" data-session-row={session.id}>
              {renaming === session.id ? (
                <input
                  className="rename-input"
                  defaultValue={session.title}
                  autoFocus
                  aria-label={t('sessions.rename')}
                  data-testid="rename-input"
                  onKeyDown={(event) => {
                    if (event.key === 'Enter') void rename(session.id, event.currentTarget.value);
                    if (event.key === 'Escape') setRenaming(undefined);
                  }}
                  onBlur={(event) => void rename(session.id, event.currentTarget.value)}
                />
              ) : (
                <button
                  type="button"
                  className={`session-link ${session.id === activeId ? 'active' : ''}`}
                  onClick={() => void store.openSession(session.id)}
                  onDoubleClick={() => setRenaming(session.id)}
                  data-session={session.id}
                >
                  <span className="session-link-text">
                    <span className="session-title">{session.title || session.id}</span>
                    {snippet ? (
                      <Snippet text={snippet} />
                    ) : (
                      <span className="session-when">{relativeTime(session.updatedAt, i18n.language)}</span>
                    )}
                  </span>
                  <span className={`status-badge status-${status}`} data-status={status}>
                    {status === 'running' ? <span className="spinner" aria-hidden /> : null}
                    {t(`status.${status}`)}
                  </span>
                </button>
              )}
              <button
                type="button"
                className="ghost row-menu-button"
                aria-label={t('sessions.actions')}
                aria-haspopup="menu"
                aria-expanded={menuFor === session.id}
                onClick={(event) => {
                  event.stopPropagation();
                  setMenuFor(menuFor === session.id ? undefined : session.id);
                }}
                data-testid="session-menu"
              >
                ⋯
              </button>
              {menuFor === session.id ? (
                <div className="row-menu" role="menu">
                  {status === 'interrupted' ? (
                    <button type="button" role="menuitem" onClick={() => void resume(session.id)} data-action="resume">
                      ↻ {t('session.resume')}
                    </button>
                  ) : null}
                  <button type="button" role="menuitem" onClick={() => setRenaming(session.id)} data-action="rename">
                    {t('sessions.rename')}
                  </button>
                  <button
                    type="button"
                    role="menuitem"
                    onClick={() => void exportAs(session.id, 'md')}
                    data-action="export-md"
                  >
                    {t('sessions.exportMd')}
                  </button>
                  <button
                    type="button"
                    role="menuitem"
                    onClick={() => void exportAs(session.id, 'json')}
                    data-action="export-json"
                  >
                    {t('sessions.exportJson')}
                  </button>
                  <button
                    type="button"
                    role="menuitem"
                    className="danger-text"
                    onClick={() => setDeleting({ session, running })}
                    data-action="delete"
                  >
                    {t('common.delete')}
                  </button>
                </div>
              ) : null}
            </li>
          );
        })}
        {canLoadMore ? (
          <li>
            <button type="button" className="ghost small load-more" onClick={() => void loadMore()}>
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
