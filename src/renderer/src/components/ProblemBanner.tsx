import { useTranslation } from 'react-i18next';
import { recogniseProblem } from '../lib/problems.js';
import './problem-banner.css';

/** An error as a readable banner: what happened, and the fix (the core's hint, or ours for known problems). */
export function ProblemBanner({
  code,
  message,
  hint,
  onDismiss,
}: {
  code: string;
  message: string;
  hint?: string;
  onDismiss?: () => void;
}) {
  const { t } = useTranslation();
  const known = recogniseProblem(code, message);
  return (
    <div className="problem-banner" role="alert" data-problem={known ?? code}>
      <div className="problem-icon" aria-hidden>
        ⚠
      </div>
      <div className="problem-text">
        <strong>{known ? t(`problems.${known}.title`) : t('problems.generic.title')}</strong>
        <p className="problem-message">{message}</p>
        {hint || known ? <p className="problem-fix">{hint ?? t(`problems.${known}.fix`)}</p> : null}
      </div>
      {onDismiss ? (
        <button type="button" className="ghost" onClick={onDismiss}>
          {t('problems.dismiss')}
        </button>
      ) : null}
    </div>
  );
}
