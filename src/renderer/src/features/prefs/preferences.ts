import i18next from 'i18next';

/** Per-machine UI choices (language, theme), kept in localStorage: they are about this screen, not the agent. */

export type LanguageChoice = 'system' | 'en' | 'zh';
export type ThemeChoice = 'system' | 'light' | 'dark';

const LANGUAGE_KEY = 'manus.language';
/** also read by public/theme.js, which applies a stored choice before first paint */
export const THEME_KEY = 'manus.theme';

function read<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
  try {
    const value = localStorage.getItem(key);
    return allowed.includes(value as T) ? (value as T) : fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // private windows may refuse storage: the choice still applies to this page
  }
}

/** The system's language when it is Chinese, else English. */
export function systemLanguage(): 'en' | 'zh' {
  const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
  return languages.some((language) => /^zh\b/i.test(language ?? '')) ? 'zh' : 'en';
}

export function languageChoice(): LanguageChoice {
  return read(LANGUAGE_KEY, ['system', 'en', 'zh'] as const, 'system');
}

export function resolvedLanguage(choice: LanguageChoice = languageChoice()): 'en' | 'zh' {
  return choice === 'system' ? systemLanguage() : choice;
}

export function setLanguage(choice: LanguageChoice): void {
  write(LANGUAGE_KEY, choice);
  const language = resolvedLanguage(choice);
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  void i18next.changeLanguage(language);
}

export function themeChoice(): ThemeChoice {
  return read(THEME_KEY, ['system', 'light', 'dark'] as const, 'system');
}

/** data-theme on <html>: unset follows the system (prefers-color-scheme), else forces light or dark. */
export function applyTheme(choice: ThemeChoice = themeChoice()): void {
  write(THEME_KEY, choice);
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}
