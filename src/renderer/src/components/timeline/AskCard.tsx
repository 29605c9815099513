import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AskItem } from '../../state/session-view.js';
import { Markdown } from '../Markdown.js';
import { ElicitationCard } from './ElicitationCard.js';
import './timeline.css';

/** How the core reads an approval answer (parseApprovalAnswer), for the line shown once it is answered. */
function approvalDecision(answer: string | undefined): 'always' | 'allow' | 'deny' {
  const word = (answer ?? '').trim().toLowerCase();
  if (['a', 'always', 'always allow', 'always_allow'].includes(word)) return 'always';
  if (['y', 'yes', 'ok', 'allow', 'approve', 'approved'].includes(word)) return 'allow';
  return 'deny';
}

/**
 * A question from the agent (ask_human, answered from the message box), an approval or a server's form (answered
 * on the card); the run waits for it.
 */
export const AskCard = memo(function AskCard({
  item,
  onAnswer,
}: {
  item: AskItem;
  onAnswer: (askId: string, answer: string) => Promise<void>;
}) {
  if (item.askKind === 'elicitation' && item.form) {
    return <ElicitationCard item={item} form={item.form} onAnswer={onAnswer} />;
  }
  return <QuestionCard item={item} onAnswer={onAnswer} />;
});

const QuestionCard = memo(function QuestionCard({
  item,
  onAnswer,
}: {
  item: AskItem;
  onAnswer: (askId: string, answer: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [sending, setSending] = useState(false);
  const submit = async (answer: string) => {
    if (!answer.trim() || sending) return;
    setSending(true);
    await onAnswer(item.askId, answer.trim());
    setSending(false);
  };
  return (
    <article
      className={`ask-card ask-${item.status} ask-kind-${item.askKind}`}
      data-ask={item.askId}
      data-kind={item.askKind}
      data-status={item.status}
    >
      <header className="ask-title">{item.askKind === 'approval' ? t('ask.approval') : t('ask.question')}</header>
      <Markdown text={item.question} />
      {item.tool ? (
        <pre className="tool-output">{`${item.tool.name} ${JSON.stringify(item.tool.args, null, 2)}`}</pre>
      ) : null}
      {item.status === 'waiting' ? (
        item.askKind === 'approval' ? (
          <div className="ask-actions">
            <button
              type="button"
              className="primary"
              disabled={sending}
              onClick={() => void submit('y')}
              data-testid="approve"
            >
              ✓ {t('ask.approve')}
            </button>
            <button type="button" disabled={sending} onClick={() => void submit('n')} data-testid="deny">
              ✕ {t('ask.deny')}
            </button>
            <button
              type="button"
              className="ghost"
              disabled={sending}
              onClick={() => void submit('always')}
              title={t('approvalCard.alwaysHint', { tool: item.tool?.name ?? '' })}
              data-testid="always-allow"
            >
              {t('approvalCard.always')}
            </button>
          </div>
        ) : (
          // typed in the message box below, which says it answers this question
          <p className="ask-hint" data-testid="ask-hint">
            ↓ {t('composerAnswer.onCard')}
          </p>
        )
      ) : (
        <p className="ask-answer">
          {item.status === 'answered'
            ? item.askKind === 'approval'
              ? t(`approvalCard.decision.${approvalDecision(item.answer)}`)
              : `${t('ask.answered')}: ${item.answer ?? ''}`
            : t('ask.cancelled')}
        </p>
      )}
    </article>
  );
});
