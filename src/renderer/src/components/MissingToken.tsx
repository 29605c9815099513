import { useTranslation } from 'react-i18next';
import './welcome.css';

export function MissingToken() {
  const { t } = useTranslation();
  return (
    <div className="welcome" data-testid="missing-token">
      <div className="welcome-mark" aria-hidden>
        ◆
      </div>
      <h1>{t('token.title')}</h1>
      <p className="welcome-subtitle">{t('token.body')}</p>
    </div>
  );
}
