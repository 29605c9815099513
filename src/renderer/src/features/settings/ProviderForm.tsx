import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LlmTestReport } from '../../../../shared/contract.js';
import { FailureText, useAction } from '../common/use-action.js';
import type { SectionProps } from './settings-types.js';
import { PROVIDERS, entryOf, type ProviderDraft } from './provider-draft.js';
import { LlmEntrySchema, fieldProblems, isHttpUrl } from './settings-schemas.js';

/** Add or edit one provider: kind, endpoint, key, model; test the connection and pick from the models it offers. */
export function ProviderForm({
  client,
  initial,
  taken,
  onCancel,
  onSave,
}: {
  client: SectionProps['client'];
  initial: ProviderDraft;
  taken: string[];
  onCancel: () => void;
  onSave: (draft: ProviderDraft) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const [report, setReport] = useState<LlmTestReport>();
  const [models, setModels] = useState<string[]>([]);
  const testing = useAction();
  const saving = useAction();
  const set = <K extends keyof ProviderDraft>(key: K, value: ProviderDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));

  // the name is a key of the settings, which the contract leaves open: unique and not empty is the form's rule
  const nameProblem = !draft.name.trim()
    ? t('settings.providers.nameRequired')
    : taken.includes(draft.name.trim())
      ? t('settings.providers.nameTaken')
      : undefined;
  const entry = entryOf(draft);
  const problems = fieldProblems(LlmEntrySchema, entry, { baseUrl: t('settings.providers.badUrl') });
  const urlProblem =
    problems.baseUrl ??
    (entry.baseUrl && !isHttpUrl(entry.baseUrl)
      ? t('settings.providers.badUrl')
      : draft.provider !== 'openai' && !entry.baseUrl
        ? t('settings.providers.urlRequired')
        : undefined);
  const invalid = Boolean(nameProblem || urlProblem || problems.model);

  const test = async () => {
    setReport(undefined);
    const result = await testing.run(() =>
      client.call('testLlm', {
        name: draft.originalName,
        config: entryOf({ ...draft, model: draft.model.trim() || 'test' }),
      }),
    );
    if (!result) return;
    setReport(result);
    if (result.models?.length) {
      setModels(result.models);
      if (!draft.model.trim()) set('model', result.models[0]!);
    }
  };

  return (
    <form
      className="settings-form"
      data-testid="provider-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!invalid) void saving.run(() => onSave(draft));
      }}
    >
      <h3>{initial.originalName ? t('settings.providers.edit') : t('settings.providers.add')}</h3>
      <div className="field-row">
        <label className="field">
          <span>{t('settings.providers.name')}</span>
          <input
            value={draft.name}
            onChange={(event) => set('name', event.target.value)}
            placeholder="openai"
            data-testid="provider-name"
          />
          {draft.name && nameProblem ? <small className="field-problem">{nameProblem}</small> : null}
        </label>
        <label className="field">
          <span>{t('settings.providers.kind')}</span>
          <select
            value={draft.provider}
            onChange={(event) => set('provider', event.target.value as ProviderDraft['provider'])}
            data-testid="provider-kind"
          >
            {PROVIDERS.map((kind) => (
              <option key={kind} value={kind}>
                {t(`settings.providers.kinds.${kind}`)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="field">
        <span>{t('settings.providers.baseUrl')}</span>
        <input
          value={draft.baseUrl}
          onChange={(event) => set('baseUrl', event.target.value)}
          placeholder={draft.provider === 'azure' ? 'https://<resource>.openai.azure.com' : 'https://api.openai.com/v1'}
          data-testid="provider-url"
        />
        {urlProblem ? <small className="field-problem">{urlProblem}</small> : null}
      </label>
      <label className="field">
        <span>{t('settings.providers.apiKey')}</span>
        <input
          type="password"
          autoComplete="off"
          value={draft.apiKey}
          onChange={(event) => set('apiKey', event.target.value)}
          placeholder="sk-…"
          data-testid="provider-key"
        />
        <small className="field-help">{t('settings.providers.keyHelp')}</small>
      </label>
      {draft.provider === 'azure' ? (
        <div className="field-row">
          <label className="field">
            <span>{t('settings.providers.apiVersion')}</span>
            <input value={draft.apiVersion} onChange={(event) => set('apiVersion', event.target.value)} />
          </label>
          <label className="field">
            <span>{t('settings.providers.deployment')}</span>
            <input value={draft.deployment} onChange={(event) => set('deployment', event.target.value)} />
          </label>
        </div>
      ) : null}
      <div className="field-row">
        <label className="field grow">
          <span>{t('settings.providers.model')}</span>
          <input
            list="provider-models"
            value={draft.model}
            onChange={(event) => set('model', event.target.value)}
            placeholder="gpt-4o"
            data-testid="provider-model"
          />
          <datalist id="provider-models">
            {models.map((model) => (
              <option key={model} value={model} />
            ))}
          </datalist>
          {models.length ? (
            <small className="field-help">{t('settings.providers.modelsFound', { count: models.length })}</small>
          ) : null}
        </label>
        <label className="field">
          <span>{t('settings.providers.visionSupport')}</span>
          <select
            value={draft.vision}
            onChange={(event) => set('vision', event.target.value as ProviderDraft['vision'])}
          >
            <option value="auto">{t('settings.providers.visionAuto')}</option>
            <option value="yes">{t('common.yes')}</option>
            <option value="no">{t('common.no')}</option>
          </select>
        </label>
      </div>
      {report ? (
        <div className={`test-result ${report.ok ? 'ok' : 'failed'}`} data-testid="test-result" role="status">
          {report.ok
            ? t('settings.providers.testOk', { ms: report.elapsedMs, count: report.models?.length ?? 0 })
            : `${t('settings.providers.testFailed')}: ${report.error ?? ''}`}
        </div>
      ) : null}
      <FailureText failure={testing.failure ?? saving.failure} />
      <div className="form-actions">
        <button
          type="button"
          onClick={() => void test()}
          disabled={testing.busy || Boolean(urlProblem)}
          data-testid="test-provider"
        >
          {testing.busy ? <span className="spinner" aria-hidden /> : null} {t('settings.providers.test')}
        </button>
        <span className="spacer" />
        <button type="button" className="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="primary" disabled={invalid || saving.busy} data-testid="save-provider">
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
