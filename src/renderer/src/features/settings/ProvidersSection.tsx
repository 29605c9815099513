import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../common/ConfirmDialog.js';
import type { SectionProps } from './settings-types.js';
import { draftOf, entryOf, type ProviderDraft } from './provider-draft.js';
import { ProviderForm } from './ProviderForm.js';
import { VisionFields } from './VisionFields.js';

export function ProvidersSection({
  client,
  settings,
  save,
  startAdding,
  startEditing,
}: SectionProps & { startAdding?: boolean; startEditing?: string }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<ProviderDraft | undefined>(() => {
    const asked = startEditing ? settings.llms[startEditing] : undefined;
    if (asked) return draftOf(startEditing, asked);
    return startAdding || Object.keys(settings.llms).length === 0 ? draftOf(undefined) : undefined;
  });
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
        <>
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
          </div>
          <VisionFields settings={settings} save={save} />
        </>
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
