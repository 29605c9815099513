import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DoneItem } from '../../state/session-view.js';
import type { TurnEnd as TurnEndState } from '../../state/turn-end.js';
import { Markdown } from '../Markdown.js';

/**
 * The end of a turn that did not finish, in the conversation itself: why it ended and the way back. Retry sends the
 * same message again (its attachments and mode); Resume continues the run or its plan from where it stopped.
 */
export function TurnEnd({
  item,
  end,
  onRetry,
  onResume,
}: {
  item: DoneItem;
  end: TurnEndState;
  onRetry: () => Promise<void>;
  onResume: () => Promise<void>;
}) {
  const { t } = useTranslation();
  // one click sends one turn: the buttons wait for the request (the run's events then replace this card)
  const [pending, setPending] = useState(false);
  const act = (action: () => Promise<void>) => () => {
    setPending(true);
    void action().finally(() => setPending(false));
  };
  return (
    <article className={`done-card done-${item.status} turn-end`} data-testid="turn-end" data-status={item.status}>
      <header>{t(`done.${item.status}`)}</header>
      {item.status === 'failed' ? null : <p className="turn-end-reason">{t(`coreMessages.turnEnd.${item.status}`)}</p>}
      {item.status === 'failed' && item.result && !item.repeatsLastMessage ? <Markdown text={item.result} /> : null}
      <div className="turn-end-actions">
        {end.canResume ? (
          <button
            type="button"
            className="primary"
            onClick={act(onResume)}
            disabled={pending}
            title={t('coreMessages.turnEnd.resumeHint')}
            data-testid="turn-resume"
          >
            ↻ {t('session.resume')}
          </button>
        ) : null}
        <button
          type="button"
          className={end.canResume ? undefined : 'primary'}
          onClick={act(onRetry)}
          disabled={pending}
          title={t('coreMessages.turnEnd.retryHint')}
          data-testid="turn-retry"
        >
          ⟳ {t('coreMessages.turnEnd.retry')}
        </button>
      </div>
    </article>
  );
}
