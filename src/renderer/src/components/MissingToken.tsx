import { useTranslation } from 'react-i18next';
import './welcome.css';

/**
 * The page has no access token (opened without the printed URL), or the server refused the one it had: `manus serve`
 * restarted with a new token (`--new-token`, `--token`, MANUS_SERVE_TOKEN). Sessions are safe in the data folder.
 */
export function MissingToken({ refused = false }: { refused?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="welcome" data-testid="missing-token" data-reason={refused ? 'refused' : 'missing'}>
      <div className="welcome-mark" aria-hidden>
        ◆
      </div>
      <h1>{refused ? t('coreMessages.token.refusedTitle') : t('token.title')}</h1>
      <p className="welcome-subtitle">{refused ? t('coreMessages.token.refusedBody') : t('token.body')}</p>
      {refused ? (
        <>
          <p className="welcome-subtitle">{t('coreMessages.token.where', { origin: window.location.origin })}</p>
          <p className="welcome-subtitle">{t('coreMessages.token.safe')}</p>
        </>
      ) : null}
    </div>
  );
}
