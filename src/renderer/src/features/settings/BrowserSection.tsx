import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SectionProps } from './settings-types.js';

/** Browser: which Chromium (an executable or a Playwright channel), whether it shows a window, what it may reach. */
export function BrowserSection({ settings, save }: SectionProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(settings.browser);
  return (
    <form
      className="settings-form"
      onSubmit={(event) => {
        event.preventDefault();
        void save({ ...settings, browser: draft });
      }}
    >
      <label className="field">
        <span>{t('settings.browser.executable')}</span>
        <input
          value={draft.executablePath ?? ''}
          onChange={(event) => setDraft({ ...draft, executablePath: event.target.value.trim() || undefined })}
          placeholder="/usr/bin/chromium"
          data-testid="browser-executable"
        />
        <small className="field-help">{t('settings.browser.executableHelp')}</small>
      </label>
      <label className="field">
        <span>{t('settings.browser.channel')}</span>
        <select
          value={draft.channel ?? ''}
          onChange={(event) => setDraft({ ...draft, channel: event.target.value || undefined })}
        >
          <option value="">{t('settings.browser.channelNone')}</option>
          <option value="chrome">Google Chrome</option>
          <option value="chrome-beta">Chrome Beta</option>
          <option value="msedge">Microsoft Edge</option>
          <option value="chromium">Chromium</option>
        </select>
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.headless}
          onChange={(event) => setDraft({ ...draft, headless: event.target.checked })}
        />
        {t('settings.browser.headless')}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.allowPrivateNetwork}
          onChange={(event) => setDraft({ ...draft, allowPrivateNetwork: event.target.checked })}
          data-testid="browser-private-network"
        />
        {t('settings.browser.privateNetwork')}
      </label>
      <p className="field-help">{t('settings.browser.privateNetworkHelp')}</p>
      <div className="form-actions">
        <span className="spacer" />
        <button type="submit" className="primary" data-testid="save-browser">
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
