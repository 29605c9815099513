import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from './en.js';

/** One i18next instance; languages are added as resources (issue 8: Simplified Chinese, following the system). */
export function initI18n(): typeof i18next {
  void i18next.use(initReactI18next).init({
    resources: { en: { translation: en } },
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}
