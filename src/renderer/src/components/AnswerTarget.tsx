import { useTranslation } from 'react-i18next';

/** longer questions are cut here: the whole one is on its card above */
const QUESTION_PREVIEW_CHARS = 160;

/** Above the message box while the agent waits on a question: says the next message answers it, and which. */
export function AnswerTarget({ question }: { question: string }) {
  const { t } = useTranslation();
  const firstLine = question.trim().split('\n')[0] ?? '';
  const preview =
    firstLine.length > QUESTION_PREVIEW_CHARS ? `${firstLine.slice(0, QUESTION_PREVIEW_CHARS - 1)}…` : firstLine;
  return (
    <div className="composer-answering" role="status" data-testid="composer-answering">
      <span className="composer-answering-label">↩ {t('composerAnswer.target')}</span>
      <span className="composer-answering-question">{preview}</span>
    </div>
  );
}
