import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SESSION_MODES, type SessionMode } from '../../../shared/events.js';
import type { ModelChoice } from '../../../shared/contract.js';
import { formatBytes, type Attachment } from '../features/workspace/file-reading.js';
import { PaperclipIcon } from '../features/common/PaperclipIcon.js';
import { shortcutMatches } from '../shortcuts/shortcuts.js';
import './composer.css';

const MAX_ROWS_PX = 240;

export interface ComposerProps {
  text: string;
  onTextChange: (text: string) => void;
  running: boolean;
  followUp: boolean;
  models: ModelChoice[];
  defaultModel?: string;
  initialMode?: SessionMode;
  focusSignal?: number;
  onSend: (task: string, mode: SessionMode, model: string | undefined) => Promise<boolean>;
  onStop: () => void;
  /** files dropped here: copied into the workspace when the message is sent */
  attachments?: Attachment[];
  onAttach?: (files: File[]) => void;
  onRemoveAttachment?: (index: number) => void;
}

/** Multi-line task input: Enter sends, Shift+Enter adds a line, Esc stops a run. */
export function Composer({
  text,
  onTextChange: setText,
  running,
  followUp,
  models,
  defaultModel,
  initialMode,
  focusSignal,
  onSend,
  onStop,
  attachments = [],
  onAttach,
  onRemoveAttachment,
}: ComposerProps) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<SessionMode>(initialMode ?? 'agent');
  const [model, setModel] = useState<string>('');
  const [sending, setSending] = useState(false);
  const [dragging, setDragging] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const defaultLabel = models.find((choice) => choice.name === defaultModel)?.model ?? defaultModel;

  useEffect(() => {
    inputRef.current?.focus();
  }, [focusSignal]);

  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.style.height = 'auto';
    input.style.height = `${Math.min(input.scrollHeight, MAX_ROWS_PX)}px`;
  }, [text]);

  const send = async () => {
    const task = text.trim();
    if (!task || running || sending) return;
    setSending(true);
    const sent = await onSend(task, mode, model || undefined);
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
          {attachments.map((attachment, index) => (
            <li key={`${attachment.name}:${index}`} className="chip">
              <PaperclipIcon size={13} /> {attachment.name}{' '}
              <span className="file-size">{formatBytes(attachment.size)}</span>
              <button
                type="button"
                className="ghost small"
                aria-label={t('attach.remove')}
                onClick={() => onRemoveAttachment?.(index)}
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <textarea
        ref={inputRef}
        className="composer-input"
        rows={1}
        value={text}
        placeholder={followUp ? t('composer.followUp') : t('composer.placeholder')}
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
              onClick={() => setMode(option)}
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
        {running ? (
          <button
            type="button"
            className="stop-button"
            onClick={onStop}
            title={t('composer.stopHint')}
            data-testid="stop"
          >
            ■ {t('composer.stop')}
          </button>
        ) : (
          <button type="submit" className="primary send-button" disabled={!text.trim() || sending} data-testid="send">
            {t('composer.send')} ↵
          </button>
        )}
      </div>
    </form>
  );
}
