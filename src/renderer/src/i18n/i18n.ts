import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.js';
import { zh } from './zh.js';
import { resolvedLanguage } from '../features/prefs/preferences.js';

/** One i18next instance: English and Simplified Chinese; the language follows the system unless the user picked one. */
export function initI18n(): typeof i18next {
  const lng = resolvedLanguage();
  document.documentElement.lang = lng === 'zh' ? 'zh-CN' : 'en';
  void i18next.use(initReactI18next).init({
    resources: { en: { translation: en }, zh: { translation: zh } },
    lng,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}
