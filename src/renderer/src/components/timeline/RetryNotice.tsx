import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { NoticeItem } from '../../state/session-view.js';

const TICK_MS = 1000;

/** Seconds left until `at`, counted down once a second while there are any. */
function useSecondsUntil(at: number): number {
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((at - now) / 1000));
  useEffect(() => {
    if (left === 0) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(TICK_MS, at - Date.now()));
    return () => clearTimeout(timer);
  }, [at, left, now]);
  return left;
}

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
