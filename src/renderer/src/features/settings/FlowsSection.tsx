import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MaskedSettings } from '../../../../shared/contract.js';
import type { SectionProps } from './settings-types.js';

/** One limit of a flow: where it is saved, and whether it must be a whole number (timeouts may be fractions). */
interface FlowLimit {
  group: 'planning' | 'planAct';
  key: string;
  whole: boolean;
  min: number;
}

const LIMITS: FlowLimit[] = [
  { group: 'planning', key: 'maxStepRuns', whole: true, min: 1 },
  { group: 'planning', key: 'timeoutMinutes', whole: false, min: 0 },
  { group: 'planAct', key: 'maxStepsPerPlan', whole: true, min: 1 },
  { group: 'planAct', key: 'maxReplans', whole: true, min: 0 },
  { group: 'planAct', key: 'timeoutMinutes', whole: false, min: 0 },
];

const fieldId = (limit: FlowLimit) => `${limit.group}.${limit.key}`;

function valueOf(settings: MaskedSettings, limit: FlowLimit): number {
  return (settings[limit.group] as Record<string, number>)[limit.key];
}

/** A typed value the limit accepts (timeouts above zero, counts from their minimum), else undefined. */
function parsed(text: string, limit: FlowLimit): number | undefined {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) return undefined;
  if (limit.whole ? !Number.isInteger(value) || value < limit.min : value <= limit.min) return undefined;
  return value;
}

/** Flows: the limits of a planning-flow turn (`planning.*`) and of a Plan-Act turn (`planAct.*`). */
export function FlowsSection({ settings, save }: SectionProps) {
  const { t } = useTranslation();
  const [drafts, setDrafts] = useState(() =>
    Object.fromEntries(LIMITS.map((limit) => [fieldId(limit), String(valueOf(settings, limit))])),
  );
  const [problem, setProblem] = useState<string>();

  const submit = () => {
    const next = { ...settings, planning: { ...settings.planning }, planAct: { ...settings.planAct } };
    for (const limit of LIMITS) {
      const value = parsed(drafts[fieldId(limit)], limit);
      if (value === undefined)
        return setProblem(t('settings.flows.bad', { field: t(`settings.flows.${fieldId(limit)}`) }));
      (next[limit.group] as Record<string, number>)[limit.key] = value;
    }
    setProblem(undefined);
    void save(next);
  };

  const field = (limit: FlowLimit) => (
    <label className="field" key={fieldId(limit)}>
      <span>{t(`settings.flows.${fieldId(limit)}`)}</span>
      <input
        type="number"
        min={limit.min}
        step={limit.whole ? 1 : 'any'}
        value={drafts[fieldId(limit)]}
        onChange={(event) => setDrafts({ ...drafts, [fieldId(limit)]: event.target.value })}
        data-testid={`flow-${fieldId(limit)}`}
      />
      <small className="field-help">{t(`settings.flows.${fieldId(limit)}Help`)}</small>
    </label>
  );

  return (
    <form
      className="settings-form"
      // the checks below say what is wrong in the app's language, the browser's would not
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <h3>{t('settings.flows.planning.title')}</h3>
      {LIMITS.filter((limit) => limit.group === 'planning').map(field)}
      <h3>{t('settings.flows.planAct.title')}</h3>
      {LIMITS.filter((limit) => limit.group === 'planAct').map(field)}
      {problem ? (
        <p className="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="form-actions">
        <span className="spacer" />
        <button type="submit" className="primary" data-testid="save-flows">
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
