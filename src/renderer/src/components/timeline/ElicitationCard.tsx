import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  checkFieldValue,
  decodeElicitationAnswer,
  defaultElicitationContent,
  encodeElicitationAnswer,
  readFieldInput,
  type ElicitationField,
  type ElicitationForm,
  type ElicitationValue,
} from '../../../../shared/elicitation-form.js';
import type { AskItem } from '../../state/session-view.js';
import { Markdown } from '../Markdown.js';
import './timeline.css';

type Draft = Record<string, ElicitationValue | undefined>;

const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', date: 'date' };

/** What the person filled, as the server's types; the problems by field when something does not fit. */
function readDraft(form: ElicitationForm, draft: Draft) {
  const content: Record<string, ElicitationValue> = {};
  const problems: Record<string, string> = {};
  for (const field of form.fields) {
    const value = draft[field.name];
    const result =
      typeof value === 'string' && field.type !== 'enum' ? readFieldInput(field, value) : checkFieldValue(field, value);
    if (!result.ok) problems[field.name] = result.problem;
    else if (result.value !== undefined) content[field.name] = result.value;
  }
  return { content, problems };
}

/** A text input holds text: numbers are edited as text and read back by the form's rules. */
function initialDraft(form: ElicitationForm): Draft {
  const draft: Draft = {};
  for (const [name, value] of Object.entries(defaultElicitationContent(form))) {
    draft[name] = typeof value === 'number' ? String(value) : value;
  }
  return draft;
}

/** An MCP server's form (elicitation/create), filled in the conversation; the run waits for it. */
export const ElicitationCard = memo(function ElicitationCard({
  item,
  form,
  onAnswer,
}: {
  item: AskItem;
  form: ElicitationForm;
  onAnswer: (askId: string, answer: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => initialDraft(form));
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [sending, setSending] = useState(false);
  const waiting = item.status === 'waiting';
  const send = async (action: 'accept' | 'decline' | 'cancel') => {
    if (sending) return;
    let answer: string;
    if (action === 'accept') {
      const read = readDraft(form, draft);
      setProblems(read.problems);
      if (Object.keys(read.problems).length > 0) return;
      answer = encodeElicitationAnswer({ action, content: read.content });
    } else {
      answer = encodeElicitationAnswer({ action });
    }
    setSending(true);
    await onAnswer(item.askId, answer);
    setSending(false);
  };
  const set = (name: string, value: ElicitationValue | undefined) =>
    setDraft((current) => ({ ...current, [name]: value }));
  const decision = item.status === 'answered' ? decodeElicitationAnswer(item.answer).action : undefined;
  return (
    <article
      className={`ask-card ask-${item.status} ask-kind-elicitation`}
      data-ask={item.askId}
      data-kind="elicitation"
      data-status={item.status}
    >
      <header className="ask-title">{t('elicitation.title', { server: form.server })}</header>
      <Markdown text={form.message} />
      <form
        className="elicitation-form"
        onSubmit={(event) => {
          event.preventDefault();
          void send('accept');
        }}
      >
        {form.fields.map((field) => (
          <FieldRow
            key={field.name}
            field={field}
            value={draft[field.name]}
            problem={problems[field.name]}
            disabled={!waiting || sending}
            onChange={(value) => set(field.name, value)}
          />
        ))}
        {waiting ? (
          <div className="ask-actions">
            <button type="submit" className="primary" disabled={sending} data-testid="elicitation-accept">
              {t('elicitation.accept')}
            </button>
            <button
              type="button"
              disabled={sending}
              onClick={() => void send('decline')}
              data-testid="elicitation-decline"
            >
              {t('elicitation.decline')}
            </button>
            <button
              type="button"
              className="ghost"
              disabled={sending}
              onClick={() => void send('cancel')}
              data-testid="elicitation-cancel"
            >
              {t('elicitation.cancel')}
            </button>
          </div>
        ) : null}
      </form>
      {!waiting ? (
        <p className="ask-answer">{decision ? t(`elicitation.decision.${decision}`) : t('ask.cancelled')}</p>
      ) : null}
    </article>
  );
});

function FieldRow({
  field,
  value,
  problem,
  disabled,
  onChange,
}: {
  field: ElicitationField;
  value: ElicitationValue | undefined;
  problem?: string;
  disabled: boolean;
  onChange: (value: ElicitationValue | undefined) => void;
}) {
  const { t } = useTranslation();
  const id = `elicitation-${field.name}`;
  const label = (
    <span className="elicitation-label">
      {field.title ?? field.name}
      {field.required ? <span className="elicitation-required"> ({t('elicitation.required')})</span> : null}
    </span>
  );
  return (
    <div className="elicitation-field" data-testid={`elicitation-field-${field.name}`} data-problem={problem ?? ''}>
      {field.type === 'boolean' ? (
        <label htmlFor={id} className="elicitation-check">
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            disabled={disabled}
            onChange={(event) => onChange(event.target.checked)}
          />
          {label}
        </label>
      ) : field.type === 'multi_enum' ? (
        <fieldset className="elicitation-choices" disabled={disabled}>
          <legend>{label}</legend>
          {(field.options ?? []).map((option) => {
            const chosen = Array.isArray(value) ? value : [];
            return (
              <label key={option.value} className="elicitation-check">
                <input
                  type="checkbox"
                  checked={chosen.includes(option.value)}
                  onChange={(event) =>
                    onChange(
                      event.target.checked
                        ? [...chosen, option.value]
                        : chosen.filter((picked) => picked !== option.value),
                    )
                  }
                />
                {option.label}
              </label>
            );
          })}
        </fieldset>
      ) : (
        <label htmlFor={id}>
          {label}
          {field.type === 'enum' ? (
            <select
              id={id}
              value={typeof value === 'string' ? value : ''}
              disabled={disabled}
              onChange={(event) => onChange(event.target.value || undefined)}
            >
              <option value="">{t('elicitation.choose')}</option>
              {(field.options ?? []).map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          ) : (
            <input
              id={id}
              className="ask-input"
              type={field.type === 'string' ? (INPUT_TYPES[field.format ?? ''] ?? 'text') : 'number'}
              step={field.type === 'integer' ? 1 : field.type === 'number' ? 'any' : undefined}
              min={field.minimum}
              max={field.maximum}
              value={typeof value === 'string' ? value : ''}
              disabled={disabled}
              onChange={(event) => onChange(event.target.value)}
            />
          )}
        </label>
      )}
      {field.description ? <small className="elicitation-description">{field.description}</small> : null}
      {problem ? <small className="elicitation-problem">{problem}</small> : null}
    </div>
  );
}
