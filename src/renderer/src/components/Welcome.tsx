import { useTranslation } from 'react-i18next';
import './welcome.css';

export function Welcome({ onPick }: { onPick: (task: string) => void }) {
  const { t } = useTranslation();
  const examples = [t('welcome.example1'), t('welcome.example2'), t('welcome.example3')];
  return (
    <div className="welcome">
      <div className="welcome-mark" aria-hidden>
        ◆
      </div>
      <h1>{t('welcome.title')}</h1>
      <p className="welcome-subtitle">{t('welcome.subtitle')}</p>
      <div className="welcome-examples">
        <span className="sidebar-label">{t('welcome.examples')}</span>
        {examples.map((example) => (
          <button key={example} type="button" className="example" onClick={() => onPick(example)}>
            {example}
          </button>
        ))}
      </div>
    </div>
  );
}
