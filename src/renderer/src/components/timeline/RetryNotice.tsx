import { useTranslation } from 'react-i18next';
import type { NoticeItem } from '../../state/session-view.js';
import { useSecondsUntil } from '../../lib/use-seconds-until.js';

/** The model request failed and is tried again: why, and a live countdown to the next attempt. */
export function RetryNotice({ item, live }: { item: NoticeItem; live: boolean }) {
  const { t } = useTranslation();
  const params = item.params ?? {};
  const retryAt = typeof params.retryAt === 'number' ? params.retryAt : 0;
  const seconds = useSecondsUntil(live ? retryAt : 0);
  const reason = t(`coreMessages.retryReasons.${String(params.reason)}`, {
    defaultValue: t('coreMessages.retryReasons.other'),
  });
  const attempt = { attempt: params.attempt, maxAttempts: params.maxAttempts };
  return (
    <div className="notice notice-warning retry-notice" data-testid="retry-notice" data-seconds={seconds}>
      <span>{reason}</span>{' '}
      <strong>
        {seconds > 0
          ? t('coreMessages.retryIn', { count: seconds, ...attempt })
          : live
            ? t('coreMessages.retryingNow', attempt)
            : t('coreMessages.retried', attempt)}
      </strong>
    </div>
  );
}
