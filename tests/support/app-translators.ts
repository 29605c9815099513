import i18next, { type TFunction } from 'i18next';
import { en } from '../../src/renderer/src/i18n/en.js';
import { zh } from '../../src/renderer/src/i18n/zh.js';

/** The app's strings in English and Chinese, as the renderer's i18next reads them, for tests of what a person reads. */
export async function appTranslators(): Promise<{ en: TFunction; zh: TFunction }> {
  const instance = i18next.createInstance();
  await instance.init({
    resources: { en: { translation: en }, zh: { translation: zh } },
    lng: 'en',
    fallbackLng: 'en',
    interpolation: { escapeValue: false },
    showSupportNotice: false,
  });
  return { en: instance.getFixedT('en'), zh: instance.getFixedT('zh') };
}
