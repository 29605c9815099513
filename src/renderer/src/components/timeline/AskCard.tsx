import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AskItem } from '../../state/session-view.js';
import { Markdown } from '../Markdown.js';

/** A question from the agent (ask_human) or an approval, answered inline; the run waits for it. */
export const AskCard = memo(function AskCard({
  item,
  onAnswer,
}: {
  item: AskItem;
  onAnswer: (askId: string, answer: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [sending, setSending] = useState(false);
  const submit = async (answer: string) => {
    if (!answer.trim() || sending) return;
    setSending(true);
    await onAnswer(item.askId, answer.trim());
    setSending(false);
  };
  return (
    <article className={`ask-card ask-${item.status}`} data-ask={item.askId}>
      <header className="ask-title">{item.askKind === 'approval' ? t('ask.approval') : t('ask.question')}</header>
      <Markdown text={item.question} />
      {item.tool ? (
        <pre className="tool-output">{`${item.tool.name} ${JSON.stringify(item.tool.args, null, 2)}`}</pre>
      ) : null}
      {item.status === 'waiting' ? (
        item.askKind === 'approval' ? (
          <div className="ask-actions">
            <button type="button" className="primary" disabled={sending} onClick={() => void submit('approve')}>
              {t('ask.approve')}
            </button>
            <button type="button" disabled={sending} onClick={() => void submit('always')}>
              {t('ask.always')}
            </button>
            <button type="button" disabled={sending} onClick={() => void submit('deny')}>
              {t('ask.deny')}
            </button>
          </div>
        ) : (
          <form
            className="ask-form"
            onSubmit={(event) => {
              event.preventDefault();
              void submit(draft);
            }}
          >
            <input
              className="ask-input"
              value={draft}
              placeholder={t('ask.placeholder')}
              onChange={(event) => setDraft(event.target.value)}
              autoFocus
            />
            <button type="submit" className="primary" disabled={sending || !draft.trim()}>
              {t('ask.send')}
            </button>
          </form>
        )
      ) : (
        <p className="ask-answer">
          {item.status === 'answered' ? `${t('ask.answered')}: ${item.answer ?? ''}` : t('ask.cancelled')}
        </p>
      )}
    </article>
  );
});
