import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MaskedSettings } from '../../../../shared/contract.js';
import type { SectionProps } from './settings-types.js';

type SearchDraft = MaskedSettings['search'];
type EngineName = SearchDraft['engine'];
type EngineConfig = NonNullable<SearchDraft['engines'][EngineName]>;

/** the engines, in the order the settings schema lists them (src/shared is not loaded with the first screen) */
const ENGINES: EngineName[] = ['duckduckgo', 'bing', 'google', 'baidu', 'brave', 'tavily', 'searxng'];
/** engines that need a key, and Google's engine id; the others work without */
const KEYED: EngineName[] = ['google', 'brave', 'tavily'];

/** Web search: the engine, the fallbacks tried in order when it fails, and each engine's key and URL. */
export function SearchSection({ settings, save }: SectionProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<SearchDraft>(settings.search);

  const setEngine = (name: EngineName, change: Partial<EngineConfig>) => {
    const merged = { ...draft.engines[name], ...change };
    const kept = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined && value !== ''));
    setDraft({ ...draft, engines: { ...draft.engines, [name]: kept } });
  };
  const toggleFallback = (name: EngineName, on: boolean) =>
    setDraft({
      ...draft,
      fallbackEngines: on
        ? [...draft.fallbackEngines.filter((engine) => engine !== name), name]
        : draft.fallbackEngines.filter((engine) => engine !== name),
    });

  return (
    <form
      className="settings-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save({ ...settings, search: draft });
      }}
    >
      <label className="field">
        <span>{t('settings.search.engine')}</span>
        <select
          value={draft.engine}
          onChange={(event) => setDraft({ ...draft, engine: event.target.value as EngineName })}
          data-testid="search-engine"
        >
          {ENGINES.map((name) => (
            <option key={name} value={name}>
              {t(`settings.search.engines.${name}`)}
            </option>
          ))}
        </select>
      </label>
      <fieldset className="field">
        <legend>{t('settings.search.fallbacks')}</legend>
        {ENGINES.filter((name) => name !== draft.engine).map((name) => (
          <label className="check" key={name}>
            <input
              type="checkbox"
              checked={draft.fallbackEngines.includes(name)}
              onChange={(event) => toggleFallback(name, event.target.checked)}
              data-testid={`search-fallback-${name}`}
            />
            {t(`settings.search.engines.${name}`)}
          </label>
        ))}
        <small className="field-help">{t('settings.search.fallbacksHelp')}</small>
      </fieldset>
      {ENGINES.map((name) => (
        <div className="field-row" key={name} data-testid={`search-engine-${name}`}>
          <label className="field">
            <span>{t('settings.search.url', { engine: t(`settings.search.engines.${name}`) })}</span>
            <input
              value={draft.engines[name]?.baseUrl ?? ''}
              placeholder={name === 'searxng' ? 'http://localhost:8080' : t('settings.search.defaultUrl')}
              onChange={(event) => setEngine(name, { baseUrl: event.target.value.trim() || undefined })}
              data-testid={`search-${name}-url`}
            />
          </label>
          {KEYED.includes(name) ? (
            <label className="field">
              <span>{t('settings.search.key')}</span>
              <input
                type="password"
                autoComplete="off"
                value={draft.engines[name]?.apiKey ?? ''}
                onChange={(event) => setEngine(name, { apiKey: event.target.value.trim() || undefined })}
                data-testid={`search-${name}-key`}
              />
            </label>
          ) : null}
          {name === 'google' ? (
            <label className="field">
              <span>{t('settings.search.cx')}</span>
              <input
                value={draft.engines.google?.cx ?? ''}
                onChange={(event) => setEngine('google', { cx: event.target.value.trim() || undefined })}
                data-testid="search-google-cx"
              />
            </label>
          ) : null}
        </div>
      ))}
      <div className="form-actions">
        <span className="spacer" />
        <button type="submit" className="primary" data-testid="save-search">
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
