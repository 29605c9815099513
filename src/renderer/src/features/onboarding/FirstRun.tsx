import { useTranslation } from 'react-i18next';
import '../../components/welcome.css';
import './onboarding.css';

/** First start without any model: one clear way forward, adding a provider. */
export function FirstRun({ onAddProvider }: { onAddProvider: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="welcome first-run" data-testid="first-run">
      <div className="welcome-mark" aria-hidden>
        ◆
      </div>
      <h1>{t('onboarding.title')}</h1>
      <p className="welcome-subtitle">{t('onboarding.subtitle')}</p>
      <ol className="onboarding-steps">
        <li className="current">
          <strong>{t('onboarding.step1')}</strong>
          <span>{t('onboarding.step1Help')}</span>
        </li>
        <li>
          <strong>{t('onboarding.step2')}</strong>
          <span>{t('onboarding.step2Help')}</span>
        </li>
        <li>
          <strong>{t('onboarding.step3')}</strong>
          <span>{t('onboarding.step3Help')}</span>
        </li>
      </ol>
      <button type="button" className="primary big" onClick={onAddProvider} data-testid="first-run-add-provider">
        {t('onboarding.addProvider')} →
      </button>
      <p className="field-help">{t('onboarding.local')}</p>
    </div>
  );
}
