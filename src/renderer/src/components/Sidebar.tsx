import { useTranslation } from 'react-i18next';
import type { SessionSummary } from '../../../shared/contract.js';

/** The sessions, newest first, with their state (issue 8 adds search, rename, delete, export). */
export function Sidebar({
  sessions,
  activeId,
  onOpen,
  onNew,
}: {
  sessions: SessionSummary[];
  activeId?: string;
  onOpen: (sessionId: string) => void;
  onNew: () => void;
}) {
  const { t } = useTranslation();
  return (
    <nav className="sidebar" aria-label={t('app.sessions')}>
      <div className="sidebar-head">
        <span className="brand">
          <span className="brand-mark" aria-hidden>
            ◆
          </span>
          {t('app.name')}
        </span>
        <button type="button" className="primary small" onClick={onNew} data-testid="new-session">
          + {t('app.newSession')}
        </button>
      </div>
      <div className="sidebar-label">{t('app.sessions')}</div>
      <ul className="session-list">
        {sessions.length === 0 ? <li className="sidebar-empty">{t('app.noSessions')}</li> : null}
        {sessions.map(({ session, running }) => (
          <li key={session.id}>
            <button
              type="button"
              className={`session-link ${session.id === activeId ? 'active' : ''}`}
              onClick={() => onOpen(session.id)}
              data-session={session.id}
            >
              <span className="session-title">{session.title || session.id}</span>
              <span
                className={`status-dot status-${running ? 'running' : session.status}`}
                title={t(`status.${running ? 'running' : session.status}`)}
              />
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
