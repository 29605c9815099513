import i18next, { type InitOptions } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.js';
import { zh } from './zh.js';
import { resolvedLanguage } from '../features/prefs/preferences.js';

export type UiLanguage = 'en' | 'zh';

/** Both languages' texts in memory, so i18next is ready (and renders) as soon as init returns. */
function i18nOptions(lng: UiLanguage): InitOptions {
  return {
    resources: { en: { translation: en }, zh: { translation: zh } },
    lng,
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
    initAsync: false,
    // no advertisement in the page's console
    showSupportNotice: false,
  };
}

/** One i18next instance: English and Simplified Chinese; the language follows the system unless the user picked one. */
export function initI18n(): typeof i18next {
  const lng = resolvedLanguage();
  document.documentElement.lang = lng === 'zh' ? 'zh-CN' : 'en';
  void i18next.use(initReactI18next).init(i18nOptions(lng));
  return i18next;
}

/** The same instance set to `language`, with no page around it: the build's prerender of the first screen. */
export function initI18nFor(language: UiLanguage): typeof i18next {
  if (!i18next.isInitialized) void i18next.use(initReactI18next).init(i18nOptions(language));
  else void i18next.changeLanguage(language);
  return i18next;
}
