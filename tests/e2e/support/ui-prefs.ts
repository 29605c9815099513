import type { Page } from 'playwright';

export interface UiPrefs {
  theme: 'light' | 'dark';
  language: 'en' | 'zh';
}

/** Sets the theme and language the way the appearance settings keep them (localStorage), then reloads the page. */
export async function applyUiPrefs(page: Page, prefs: UiPrefs): Promise<void> {
  await page.evaluate(({ theme, language }) => {
    localStorage.setItem('manus.theme', theme);
    localStorage.setItem('manus.language', language);
  }, prefs);
  await page.reload();
  await page.getByTestId('composer-input').waitFor();
}
