import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SESSION_MODES } from '../../../shared/session-vocabulary.js';
import type { SessionInfo } from '../../../shared/events.js';
import type { ModelChoice } from '../../../shared/contract.js';
import { formatBytes } from '../lib/format.js';
import { useTypedBeforeLoad } from '../lib/use-typed-before-load.js';
import type { Attachment } from '../features/uploads/use-attachments.js';
import { PaperclipIcon } from '../features/common/PaperclipIcon.js';
import { keysText, shortcutMatches } from '../shortcuts/shortcuts.js';
import { AnswerTarget } from './AnswerTarget.js';
import { FlowChoices, choicesOf, type TurnChoices } from './FlowChoices.js';
import './composer.css';

const MAX_ROWS_PX = 240;

export interface ComposerProps {
  text: string;
  onTextChange: (text: string) => void;
  running: boolean;
  followUp: boolean;
  models: ModelChoice[];
  defaultModel?: string;
  /** the open session's row: its mode, agents and parallel steps are where the choices start */
  session?: SessionInfo;
  /** the agents a flow may use, and those it uses when none is chosen */
  agents?: string[];
  defaultAgents?: string[];
  focusSignal?: number;
  onSend: (task: string, choices: TurnChoices, model: string | undefined) => Promise<boolean>;
  onStop: () => void;
  /** the agent's question the run waits on: the next message answers it instead of starting a turn */
  answering?: { askId: string; question: string };
  onAnswer?: (askId: string, answer: string) => Promise<boolean>;
  /** files dropped here: uploaded at once, moved into the workspace when the message is sent */
  attachments?: Attachment[];
  onAttach?: (files: File[]) => void;
  onRemoveAttachment?: (key: string) => void;
}

/** Multi-line task input: Enter sends, Shift+Enter adds a line; Stop (or Ctrl/⌘+.) stops a run. */
export function Composer({
  text,
  onTextChange: setText,
  running,
  followUp,
  models,
  defaultModel,
  session,
  agents = [],
  defaultAgents = [],
  focusSignal,
  onSend,
  onStop,
  answering,
  onAnswer,
  attachments = [],
  onAttach,
  onRemoveAttachment,
}: ComposerProps) {
  const { t } = useTranslation();
  const [choices, setChoices] = useState<TurnChoices>(() => choicesOf(session));
  // the composer outlives the session shown: opening (or reloading into) another one starts from that one's choices
  const [choicesOfSession, setChoicesOfSession] = useState(session?.id);
  if (choicesOfSession !== session?.id) {
    setChoicesOfSession(session?.id);
    setChoices(choicesOf(session));
  }
  const { mode } = choices;
  const [model, setModel] = useState<string>('');
  const [sending, setSending] = useState(false);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const defaultLabel = models.find((choice) => choice.name === defaultModel)?.model ?? defaultModel;

  useTypedBeforeLoad(inputRef, text, setText);

  // a question from the agent brings the cursor here, where it is answered; on mount, a field the person is already
  // in keeps the cursor (the page's first screen takes clicks before the app has loaded)
  const mounted = useRef(false);
  useEffect(() => {
    const input = inputRef.current;
    const inOtherField = document.activeElement instanceof HTMLInputElement;
    if (mounted.current || !inOtherField) input?.focus();
    mounted.current = true;
  }, [focusSignal, answering?.askId]);

  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, MAX_ROWS_PX)}px`;
  }, [text]);

  // a message sent while its files upload goes once they are uploaded (onSend waits); an answer carries none
  const uploading = !answering && attachments.some((attachment) => !attachment.uploadId);
  const send = async () => {
    const task = text.trim();
    if (!task || sending || (running && !answering)) return;
    setSending(true);
    const sent =
      answering && onAnswer ? await onAnswer(answering.askId, task) : await onSend(task, choices, model || undefined);
    setSending(false);
    if (sent) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // while an input method is composing, Enter picks a candidate, it does not send
    if (shortcutMatches('send', event) && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form
      className={`composer ${dragging ? 'dragging' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
      onDragOver={(event) => {
        if (!onAttach || !event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        if (!onAttach) return;
        event.preventDefault();
        setDragging(false);
        onAttach([...event.dataTransfer.files]);
      }}
      data-testid="composer"
    >
      {attachments.length ? (
        <ul className="attachment-list" data-testid="attachments">
          {attachments.map((attachment) => (
            <li
              key={attachment.key}
              className="chip"
              data-uploaded={attachment.uploadId ? 'true' : 'false'}
              data-name={attachment.name}
            >
              <PaperclipIcon size={13} /> {attachment.name}{' '}
              <span className="file-size">
                {attachment.uploadId
                  ? formatBytes(attachment.size)
                  : t('uploads.progress', {
                      percent: Math.floor((attachment.sentBytes / Math.max(attachment.size, 1)) * 100),
                    })}
              </span>
              <button
                type="button"
                className="ghost small"
                aria-label={t('attach.remove')}
                onClick={() => onRemoveAttachment?.(attachment.key)}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {answering ? <AnswerTarget question={answering.question} /> : null}
      <textarea
        ref={inputRef}
        className="composer-input"
        rows={1}
        autoFocus
        value={text}
        placeholder={
          answering ? t('composerAnswer.placeholder') : followUp ? t('composer.followUp') : t('composer.placeholder')
        }
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
        aria-label={t('composer.placeholder')}
        data-testid="composer-input"
      />
      <div className="composer-bar">
        <div className="mode-switch" role="radiogroup" aria-label={t('mode.label')}>
          {SESSION_MODES.map((option) => (
            <button
              key={option}
              type="button"
              role="radio"
              aria-checked={mode === option}
              className={mode === option ? 'active' : ''}
              onClick={() => setChoices({ ...choices, mode: option })}
              data-mode={option}
            >
              {t(`mode.${option}`)}
            </button>
          ))}
        </div>
        <select
          className="model-picker"
          value={model}
          onChange={(event) => setModel(event.target.value)}
          aria-label={t('composer.model')}
        >
          <option value="">
            {t('composer.defaultModel')}
            {defaultLabel ? ` · ${defaultLabel}` : ''}
          </option>
          {models.map((choice) => (
            <option key={choice.name} value={choice.name}>
              {choice.name} · {choice.model}
            </option>
          ))}
        </select>
        {onAttach ? (
          <label className="attach-button" title={t('attach.add')}>
            <input
              type="file"
              multiple
              aria-label={t('attach.add')}
              onChange={(event) => {
                if (event.target.files?.length) onAttach([...event.target.files]);
                event.target.value = '';
              }}
              data-testid="attach-input"
            />
            <PaperclipIcon size={18} />
          </label>
        ) : null}
        <span className="spacer" />
        {answering ? (
          <button
            type="submit"
            className="primary send-button"
            disabled={!text.trim() || sending}
            data-testid="send-answer"
          >
            {t('composerAnswer.send')} ↵
          </button>
        ) : null}
        {running ? (
          <button
            type="button"
            className="stop-button"
            onClick={onStop}
            title={t('composer.stopHint', { keys: keysText('stop') })}
            aria-keyshortcuts="Control+Period Meta+Period"
            data-testid="stop"
          >
            ■ {t('composer.stop')}
          </button>
        ) : (
          <button
            type="submit"
            className="primary send-button"
            disabled={!text.trim() || sending}
            data-testid="send"
            data-waiting-for-uploads={sending && uploading ? 'true' : undefined}
          >
            {sending && uploading ? t('uploads.sendOnceUploaded') : `${t('composer.send')} ↵`}
          </button>
        )}
      </div>
      {mode !== 'agent' && agents.length > 0 ? (
        <FlowChoices
          key={choicesOfSession ?? 'new'}
          choices={choices}
          onChange={setChoices}
          agents={agents}
          defaultAgents={defaultAgents}
        />
      ) : null}
    </form>
  );
}
