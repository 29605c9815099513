import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  applyTheme,
  languageChoice,
  setLanguage,
  themeChoice,
  type LanguageChoice,
  type ThemeChoice,
} from '../prefs/preferences.js';
import { ShortcutHelp } from '../../shortcuts/ShortcutHelp.js';

/** Language and theme: both follow the system unless chosen here; kept per machine. */
export function AppearanceSection() {
  const { t } = useTranslation();
  const [language, setLanguageState] = useState<LanguageChoice>(languageChoice());
  const [theme, setTheme] = useState<ThemeChoice>(themeChoice());
  return (
    <div className="settings-form">
      <label className="field">
        <span>{t('settings.appearance.language')}</span>
        <select
          value={language}
          onChange={(event) => {
            const choice = event.target.value as LanguageChoice;
            setLanguageState(choice);
            setLanguage(choice);
          }}
          data-testid="language"
        >
          <option value="system">{t('settings.appearance.system')}</option>
          <option value="en">English</option>
          <option value="zh">简体中文</option>
        </select>
      </label>
      <label className="field">
        <span>{t('settings.appearance.theme')}</span>
        <select
          value={theme}
          onChange={(event) => {
            const choice = event.target.value as ThemeChoice;
            setTheme(choice);
            applyTheme(choice);
          }}
          data-testid="theme"
        >
          <option value="system">{t('settings.appearance.system')}</option>
          <option value="light">{t('settings.appearance.light')}</option>
          <option value="dark">{t('settings.appearance.dark')}</option>
        </select>
      </label>
      <h3>{t('settings.appearance.shortcuts')}</h3>
      <ShortcutHelp />
    </div>
  );
}
