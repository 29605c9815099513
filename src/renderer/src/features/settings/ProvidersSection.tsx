import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LlmTestReport } from '../../../../shared/contract.js';
import { ConfirmDialog } from '../common/ConfirmDialog.js';
import { FailureText, useAction } from '../common/use-action.js';
import type { LlmEntry, SectionProps } from './settings-types.js';
import { LlmEntrySchema, fieldProblems, isHttpUrl } from './settings-schemas.js';

const PROVIDERS = ['openai', 'azure', 'compatible'] as const;

interface ProviderDraft {
  /** the name it had when editing began; undefined for a new provider */
  originalName?: string;
  name: string;
  provider: (typeof PROVIDERS)[number];
  baseUrl: string;
  apiKey: string;
  model: string;
  apiVersion: string;
  deployment: string;
  vision: 'auto' | 'yes' | 'no';
}

function draftOf(name: string | undefined, entry?: LlmEntry): ProviderDraft {
  return {
    originalName: name,
    name: name ?? '',
    provider: entry?.provider ?? 'openai',
    baseUrl: entry?.baseUrl ?? '',
    apiKey: entry?.apiKey ?? '',
    model: entry?.model ?? '',
    apiVersion: entry?.apiVersion ?? '',
    deployment: entry?.deployment ?? '',
    vision: entry?.vision === true ? 'yes' : entry?.vision === false ? 'no' : 'auto',
  };
}

function entryOf(draft: ProviderDraft, previous?: LlmEntry): LlmEntry {
  const base: LlmEntry = previous ?? {
    provider: 'openai',
    model: '',
    maxTokens: 4096,
    contextWindow: 128_000,
    vision: 'auto',
    toolCalling: 'auto',
    requestTimeoutMs: 120_000,
    maxAttempts: 6,
  };
  return {
    ...base,
    provider: draft.provider,
    model: draft.model.trim(),
    baseUrl: draft.baseUrl.trim() || undefined,
    apiKey: draft.apiKey || undefined,
    apiVersion: draft.provider === 'azure' ? draft.apiVersion.trim() || undefined : undefined,
    deployment: draft.provider === 'azure' ? draft.deployment.trim() || undefined : undefined,
    vision: draft.vision === 'auto' ? 'auto' : draft.vision === 'yes',
  };
}

/** LLM providers: list, add, edit, delete, test; the default and the vision model. */
export function ProvidersSection({ client, settings, save, startAdding }: SectionProps & { startAdding?: boolean }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<ProviderDraft | undefined>(() =>
    startAdding || Object.keys(settings.llms).length === 0 ? draftOf(undefined) : undefined,
  );
  const [deleting, setDeleting] = useState<string>();
  const names = Object.keys(settings.llms);

  const saveDraft = async (draft: ProviderDraft): Promise<boolean> => {
    const llms = { ...settings.llms };
    const previous = draft.originalName ? llms[draft.originalName] : undefined;
    if (draft.originalName) delete llms[draft.originalName];
    llms[draft.name.trim()] = entryOf(draft, previous);
    const renamed = (value: string | undefined) => (value && value === draft.originalName ? draft.name.trim() : value);
    const defaultLlm = renamed(settings.defaultLlm) ?? draft.name.trim();
    const saved = await save({ ...settings, llms, defaultLlm, visionLlm: renamed(settings.visionLlm) });
    if (saved) setEditing(undefined);
    return saved;
  };

  const remove = async (name: string) => {
    const llms = { ...settings.llms };
    delete llms[name];
    const rest = Object.keys(llms);
    await save({
      ...settings,
      llms,
      defaultLlm: settings.defaultLlm === name ? rest[0] : settings.defaultLlm,
      visionLlm: settings.visionLlm === name ? undefined : settings.visionLlm,
    });
    setDeleting(undefined);
  };

  return (
    <div className="settings-stack">
      {names.length > 0 ? (
        <div className="field-row">
          <label className="field">
            <span>{t('settings.providers.defaultModel')}</span>
            <select
              value={settings.defaultLlm ?? names[0]}
              onChange={(event) => void save({ ...settings, defaultLlm: event.target.value })}
              data-testid="default-llm"
            >
              {names.map((name) => (
                <option key={name} value={name}>
                  {name} · {settings.llms[name]!.model}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t('settings.providers.visionModel')}</span>
            <select
              value={settings.visionLlm ?? ''}
              onChange={(event) => void save({ ...settings, visionLlm: event.target.value || undefined })}
            >
              <option value="">{t('settings.providers.sameAsDefault')}</option>
              {names.map((name) => (
                <option key={name} value={name}>
                  {name} · {settings.llms[name]!.model}
                </option>
              ))}
            </select>
          </label>
        </div>
      ) : null}

      <ul className="card-list" data-testid="provider-list">
        {names.map((name) => {
          const entry = settings.llms[name]!;
          return (
            <li key={name} className="settings-card" data-provider={name}>
              <div className="settings-card-main">
                <strong>{name}</strong>
                {settings.defaultLlm === name || (!settings.defaultLlm && names[0] === name) ? (
                  <span className="badge">{t('settings.providers.default')}</span>
                ) : null}
                {settings.visionLlm === name ? <span className="badge">{t('settings.providers.vision')}</span> : null}
                <div className="settings-card-meta">
                  {t(`settings.providers.kinds.${entry.provider}`)} · {entry.model}
                  {entry.baseUrl ? ` · ${entry.baseUrl}` : ''}
                  {' · '}
                  {entry.apiKey ? <code className="masked-key">{entry.apiKey}</code> : t('settings.providers.noKey')}
                </div>
              </div>
              <div className="settings-card-actions">
                <button type="button" className="small" onClick={() => setEditing(draftOf(name, entry))}>
                  {t('common.edit')}
                </button>
                <button type="button" className="small danger-text" onClick={() => setDeleting(name)}>
                  {t('common.delete')}
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {!editing ? (
        <button
          type="button"
          className="primary add-button"
          onClick={() => setEditing(draftOf(undefined))}
          data-testid="add-provider"
        >
          + {t('settings.providers.add')}
        </button>
      ) : (
        <ProviderForm
          client={client}
          initial={editing}
          taken={names.filter((name) => name !== editing.originalName)}
          onCancel={() => setEditing(undefined)}
          onSave={saveDraft}
        />
      )}
      {deleting ? (
        <ConfirmDialog
          title={t('settings.providers.deleteTitle', { name: deleting })}
          body={t('settings.providers.deleteBody')}
          confirmLabel={t('common.delete')}
          danger
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(undefined)}
        />
      ) : null}
    </div>
  );
}

function ProviderForm({
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
