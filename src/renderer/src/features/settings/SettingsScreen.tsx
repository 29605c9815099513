import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MaskedSettings } from '../../../../shared/contract.js';
import type { ManusClient } from '../../client/manus-client.js';
import { FailureText, useAction } from '../common/use-action.js';
import { SETTINGS_TABS, type SettingsTab } from './settings-types.js';
import { ProvidersSection } from './ProvidersSection.js';
import { McpSection } from './McpSection.js';
import { SandboxSection } from './SandboxSection.js';
import { BrowserSection } from './BrowserSection.js';
import { ApprovalSection } from './ApprovalSection.js';
import { AppearanceSection } from './AppearanceSection.js';
import { UsageSection } from './UsageSection.js';
import { FlowsSection } from './FlowsSection.js';
import { SearchSection } from './SearchSection.js';
import './settings.css';

const TAB_ICONS: Record<SettingsTab, string> = {
  providers: '◇',
  mcp: '⊕',
  sandbox: '▣',
  browser: '◎',
  search: '⌕',
  flows: '☰',
  approval: '✓',
  usage: '¤',
  appearance: '◐',
};

/** Settings: one section per tab, each saving the whole (masked) settings object through updateSettings. */
export function SettingsScreen({
  client,
  tab,
  onTab,
  onClose,
  onSaved,
  startAdding,
  editProvider,
  envModel,
}: {
  client: ManusClient;
  tab: SettingsTab;
  onTab: (tab: SettingsTab) => void;
  onClose: () => void;
  /** settings changed: the app refreshes its model list */
  onSaved: () => void;
  /** open the "add provider" form at once (first run) */
  startAdding?: boolean;
  /** open this saved provider's form at once (an error about its key or model) */
  editProvider?: string;
  /** the model environment variables put in place of the saved default (MANUS_LLM_*), if any */
  envModel?: string;
}) {
  const { t } = useTranslation();
  const [settings, setSettings] = useState<MaskedSettings>();
  const [savedAt, setSavedAt] = useState<number>();
  const { failure, run } = useAction();

  useEffect(() => {
    void run(async () => setSettings(await client.call('getSettings', {})));
  }, [client, run]);

  const save = useCallback(
    async (next: MaskedSettings) => {
      const saved = await run(() => client.call('updateSettings', { settings: next }));
      if (!saved) return false;
      setSettings(saved);
      setSavedAt(Date.now());
      onSaved();
      return true;
    },
    [client, onSaved, run],
  );

  return (
    <div className="settings-screen" data-testid="settings">
      <nav className="settings-nav" aria-label={t('settings.title')}>
        <h1>{t('settings.title')}</h1>
        {SETTINGS_TABS.map((name) => (
          <button
            key={name}
            type="button"
            className={`settings-tab ${tab === name ? 'active' : ''}`}
            onClick={() => onTab(name)}
            data-tab={name}
          >
            <span className="settings-tab-icon" aria-hidden>
              {TAB_ICONS[name]}
            </span>
            {t(`settings.tabs.${name}`)}
          </button>
        ))}
        <span className="spacer" />
        <button type="button" className="ghost settings-close" onClick={onClose} data-testid="close-settings">
          ← {t('settings.back')}
        </button>
      </nav>
      <section className="settings-body">
        <header className="settings-head">
          <h2>{t(`settings.tabs.${tab}`)}</h2>
          <p className="settings-intro">{t(`settings.intro.${tab}`)}</p>
          {savedAt ? (
            <span className="badge saved-badge" key={savedAt} data-testid="saved">
              ✓ {t('settings.saved')}
            </span>
          ) : null}
        </header>
        <FailureText failure={failure} />
        {settings ? (
          <div className="settings-content">
            {tab === 'providers' ? (
              <>
                {envModel ? (
                  <p className="env-note" data-testid="env-model">
                    {t('settings.providers.envOverride', { model: envModel })}
                  </p>
                ) : null}
                <ProvidersSection
                  key={editProvider}
                  client={client}
                  settings={settings}
                  save={save}
                  startAdding={startAdding}
                  startEditing={editProvider}
                />
              </>
            ) : null}
            {tab === 'mcp' ? <McpSection client={client} settings={settings} save={save} /> : null}
            {tab === 'sandbox' ? <SandboxSection client={client} settings={settings} save={save} /> : null}
            {tab === 'browser' ? <BrowserSection client={client} settings={settings} save={save} /> : null}
            {tab === 'search' ? <SearchSection client={client} settings={settings} save={save} /> : null}
            {tab === 'flows' ? <FlowsSection client={client} settings={settings} save={save} /> : null}
            {tab === 'approval' ? <ApprovalSection client={client} settings={settings} save={save} /> : null}
            {tab === 'usage' ? <UsageSection client={client} settings={settings} save={save} /> : null}
            {tab === 'appearance' ? <AppearanceSection /> : null}
          </div>
        ) : (
          <div className="panel-empty">{t('app.loading')}</div>
        )}
      </section>
    </div>
  );
}
