import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import type { Script } from '../support/fake-llm/index.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { layoutProblems } from './support/layout-checks.js';
import { call } from './support/scripts.js';
import { applyUiPrefs, type UiPrefs } from './support/ui-prefs.js';

const UI_TIMEOUT_MS = 20_000;
const SIZES = [
  { width: 1024, height: 640 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
] as const;
/** the sizes whose screenshots go with the closing note */
const SCREENSHOT_WIDTHS = new Set([1024, 1280]);
const SCREENS_DIR = '/work/screens';
const LONG_TITLES = {
  en: 'Analyse the quarterly sales figures of every region and write a detailed report with charts and advice',
  zh: '分析每个地区的季度销售数据，撰写一份包含图表和建议的详细报告，并与去年同期的结果逐项比较',
};

const e2e = useAppInChromium();

/** Each task writes a file with a large token count, then the model thinks forever: the session stays running. */
const runningForever: Script = (request) => {
  const messages: { role: string }[] = request.body?.messages ?? [];
  if (messages.some((message) => message.role === 'tool')) return { fault: 'hang' };
  return {
    text: 'Writing the outline first.',
    toolCalls: [call('str_replace_editor', { command: 'create', path: 'outline.md', file_text: '# Outline' })],
    usage: { prompt_tokens: 123_456, completion_tokens: 7_890 },
  };
};

async function startLongTask(page: Page, task: string): Promise<void> {
  await page.getByTestId('new-session').click();
  await page.getByTestId('composer-input').fill(task);
  await page.getByTestId('composer-input').press('Enter');
  await page.locator('.session-header .usage').waitFor({ timeout: UI_TIMEOUT_MS });
  await page.locator('.tool-card[data-tool="str_replace_editor"]').waitFor({ timeout: UI_TIMEOUT_MS });
}

async function expectLayoutHolds(page: Page, prefs: UiPrefs, state: string): Promise<void> {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    const label = `${size.width}x${size.height} ${prefs.theme} ${prefs.language} ${state}`;
    await expect.poll(() => layoutProblems(page), { message: label }).toEqual([]);
    if (SCREENSHOT_WIDTHS.has(size.width)) {
      await page.screenshot({
        path: `${SCREENS_DIR}/layout-${size.width}-${prefs.theme}-${prefs.language}-${state}.png`,
      });
    }
  }
}

describe('the window layout', () => {
  it('holds on the welcome screen and in settings from 1024×640 up, in both languages', async () => {
    const { page } = await e2e.open(runningForever);
    for (const language of ['en', 'zh'] as const) {
      const prefs = { theme: 'light', language } as const;
      await applyUiPrefs(page, prefs);
      await expectLayoutHolds(page, prefs, 'welcome');
      // a long draft grows the message box up to its limit; Send stays in it and in the window
      await page.getByTestId('composer-input').fill(Array.from({ length: 20 }, (_, line) => `line ${line}`).join('\n'));
      await expectLayoutHolds(page, prefs, 'long-draft');
      await page.getByTestId('composer-input').fill('');
      await page.getByTestId('open-settings').click();
      await page.locator('[data-tab="providers"]').waitFor();
      await expectLayoutHolds(page, prefs, 'settings');
      await page.getByTestId('close-settings').click();
    }
  });

  it('holds from 1024×640 to 1920×1080 with the side panel open, in both themes and languages', async () => {
    const { page } = await e2e.open(runningForever);
    await startLongTask(page, LONG_TITLES.en);
    const english = page.url();
    await startLongTask(page, LONG_TITLES.zh);
    const chinese = page.url();

    for (const prefs of [
      { theme: 'light', language: 'en' },
      { theme: 'dark', language: 'en' },
      { theme: 'light', language: 'zh' },
      { theme: 'dark', language: 'zh' },
    ] as const) {
      await page.goto(prefs.language === 'en' ? english : chinese);
      await applyUiPrefs(page, prefs);
      await page.locator('.session-header .usage').waitFor({ timeout: UI_TIMEOUT_MS });
      await expect.poll(() => page.getByTestId('session-status').getAttribute('data-status')).toBe('running');
      if (!(await page.locator('.side-panel').count())) await page.getByTestId('toggle-files').click();
      await page.locator('.side-panel [data-file="outline.md"]').waitFor({ timeout: UI_TIMEOUT_MS });
      await expectLayoutHolds(page, prefs, 'running');
    }

    // stopped: the Review button joins the header's buttons, beside the token count
    await page.getByTestId('stop').click();
    await expect.poll(() => page.getByTestId('session-status').getAttribute('data-status')).toBe('cancelled');
    await page.getByTestId('toggle-review').waitFor();
    await expectLayoutHolds(page, { theme: 'dark', language: 'zh' }, 'stopped');
    await applyUiPrefs(page, { theme: 'light', language: 'en' });
    await page.getByTestId('toggle-review').waitFor();
    if (!(await page.locator('.side-panel').count())) await page.getByTestId('toggle-files').click();
    await page.locator('.side-panel [data-file="outline.md"]').waitFor({ timeout: UI_TIMEOUT_MS });
    await expectLayoutHolds(page, { theme: 'light', language: 'en' }, 'stopped');
  });
});
