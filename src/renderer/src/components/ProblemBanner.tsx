import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageParams } from '../../../shared/events.js';
import { readableProblem } from '../lib/core-messages.js';
import { recogniseProblem } from '../lib/problems.js';
import { useSecondsUntil } from '../lib/use-seconds-until.js';
import './problem-banner.css';

/**
 * A problem as a readable banner: what happened and what to do, in the UI's language. A coded error from the core
 * is translated from its code; its English text, which names internals (HTTP status, model id), is one click away.
 */
export function ProblemBanner({
  code,
  message,
  hint,
  params,
  title,
  onDismiss,
  onOpenProviderSettings,
  actions,
}: {
  code: string;
  message: string;
  hint?: string;
  params?: MessageParams;
  /** the banner's own words, already translated (the shell's connection problems) */
  title?: string;
  onDismiss?: () => void;
  /** shown as a button when the fix is in the provider's settings */
  onOpenProviderSettings?: (provider: string | undefined) => void;
  actions?: ReactNode;
}) {
  const { t } = useTranslation();
  const readable = title
    ? { title, fix: hint, opensProviderSettings: false, coded: false }
    : readableProblem(t, code, message, params, hint);
  const provider = typeof params?.provider === 'string' ? params.provider : undefined;
  const attempts = typeof params?.attempts === 'number' && params.attempts > 1 ? params.attempts : undefined;
  return (
    <div
      className="problem-banner"
      role="alert"
      data-problem={recogniseProblem(code, message) ?? code}
      data-code={code}
    >
      <div className="problem-icon" aria-hidden>
        ⚠
      </div>
      <div className="problem-text">
        <strong className="problem-title">{readable.title}</strong>
        {!readable.coded && !title ? <p className="problem-message">{message}</p> : null}
        {readable.fix ? <p className="problem-fix">{readable.fix}</p> : null}
        {attempts ? <p className="problem-attempts">{t('coreMessages.attempts', { count: attempts })}</p> : null}
        {typeof params?.retryAt === 'number' ? <RetryWait at={params.retryAt} /> : null}
        {readable.coded ? (
          <details className="problem-details">
            <summary>{t('coreMessages.details')}</summary>
            <p className="problem-message">{message}</p>
          </details>
        ) : null}
        {(readable.opensProviderSettings && onOpenProviderSettings) || actions ? (
          <div className="problem-actions">
            {readable.opensProviderSettings && onOpenProviderSettings ? (
              <button
                type="button"
                className="primary"
                onClick={() => onOpenProviderSettings(provider)}
                data-testid="open-provider-settings"
              >
                {provider ? t('coreMessages.openProvider', { provider }) : t('coreMessages.openProviders')}
              </button>
            ) : null}
            {actions}
          </div>
        ) : null}
      </div>
      {onDismiss ? (
        <button type="button" className="ghost" onClick={onDismiss}>
          {t('problems.dismiss')}
        </button>
      ) : null}
    </div>
  );
}

/** The wait the provider asked for before another try, counting down to the moment Retry makes sense. */
function RetryWait({ at }: { at: number }) {
  const { t } = useTranslation();
  const seconds = useSecondsUntil(at);
  // once over, the wait is history: nothing to say about it
  if (seconds === 0) return null;
  return (
    <p className="problem-wait" data-testid="retry-wait" data-seconds={seconds}>
      {t('coreMessages.canRetryIn', { count: seconds })}
    </p>
  );
}
