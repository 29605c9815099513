import { useTranslation } from 'react-i18next';
import type { SessionSummary } from '../../../../shared/contract.js';
import { relativeTime } from './relative-time.js';
import { Snippet } from './Snippet.js';

export interface SessionRowActions {
  open: () => void;
  startRename: () => void;
  rename: (title: string) => void;
  cancelRename: () => void;
  toggleMenu: () => void;
  resume: () => void;
  exportAs: (format: 'md' | 'json') => void;
  askDelete: () => void;
}

/** One session in the sidebar: its title (or a rename box), when or why it matched, its status and its menu. */
export function SessionRow({
  summary: { session, running },
  snippet,
  active,
  renaming,
  menuOpen,
  actions,
}: {
  summary: SessionSummary;
  snippet?: string;
  active: boolean;
  renaming: boolean;
  menuOpen: boolean;
  actions: SessionRowActions;
}) {
  const { t, i18n } = useTranslation();
  // a live run shows as running until the stored status says it waits for the person
  const status = running && session.status !== 'waiting' ? 'running' : session.status;
  return (
    <li className="session-row" data-session-row={session.id}>
      {renaming ? (
        <input
          className="rename-input"
          defaultValue={session.title}
          autoFocus
          aria-label={t('sessions.rename')}
          data-testid="rename-input"
          onKeyDown={(event) => {
            if (event.key === 'Enter') actions.rename(event.currentTarget.value);
            if (event.key === 'Escape') actions.cancelRename();
          }}
          onBlur={(event) => actions.rename(event.currentTarget.value)}
        />
      ) : (
        <button
          type="button"
          className={`session-link ${active ? 'active' : ''}`}
          onClick={actions.open}
          onDoubleClick={actions.startRename}
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
        aria-expanded={menuOpen}
        onClick={(event) => {
          event.stopPropagation();
          actions.toggleMenu();
        }}
        data-testid="session-menu"
      >
        ⋯
      </button>
      {menuOpen ? (
        <div className="row-menu" role="menu">
          {status === 'interrupted' ? (
            <button type="button" role="menuitem" onClick={actions.resume} data-action="resume">
              ↻ {t('session.resume')}
            </button>
          ) : null}
          <button type="button" role="menuitem" onClick={actions.startRename} data-action="rename">
            {t('sessions.rename')}
          </button>
          <button type="button" role="menuitem" onClick={() => actions.exportAs('md')} data-action="export-md">
            {t('sessions.exportMd')}
          </button>
          <button type="button" role="menuitem" onClick={() => actions.exportAs('json')} data-action="export-json">
            {t('sessions.exportJson')}
          </button>
          <button
            type="button"
            role="menuitem"
            className="danger-text"
            onClick={actions.askDelete}
            data-action="delete"
          >
            {t('common.delete')}
          </button>
        </div>
      ) : null}
    </li>
  );
}
