import { describe, expect, it } from 'vitest';
import { sequence } from '../support/fake-llm/index.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { finish } from './support/scripts.js';

const UI_TIMEOUT_MS = 20_000;
const RUN_TIMEOUT_MS = 60_000;
/** chunks named after the modules they are split at (features/settings/SettingsScreen.tsx, components/highlight-plugin.ts) */
const SETTINGS_CHUNK = /\/assets\/SettingsScreen-[\w-]+\.js$/;
const HIGHLIGHT_CHUNK = /\/assets\/highlight-plugin-[\w-]+\.js$/;
const REVIEW_CHUNK = /\/assets\/ReviewView-[\w-]+\.js$/;
/** the contract's schemas (zod), which check each live event: loaded with the first event, not with the first screen */
const EVENT_VALIDATION_CHUNK = /\/assets\/event-validation-[\w-]+\.js$/;
const CODE_REPLY = 'Here it is:\n\n```js\nconst answer = 42;\n```\n';

const chromium = useAppInChromium();

/** What Chromium logged about the Content-Security-Policy. */
function cspReports(console: string[]): string[] {
  return console.filter((line) => /Content[- ]Security[- ]Policy/i.test(line));
}

describe('the renderer split into chunks', () => {
  it('shows the composer without the settings, highlighter or schema code, and loads each when first used under the CSP', async () => {
    await chromium.serve(sequence(finish(CODE_REPLY)));
    const seen = await chromium.openPage();
    const { page } = seen;
    const composer = page.getByTestId('composer-input');
    await composer.waitFor({ timeout: UI_TIMEOUT_MS });
    const firstScreen = [...seen.scripts];
    expect(firstScreen.some((path) => path.startsWith('/assets/index-'))).toBe(true);
    expect(firstScreen.filter((path) => SETTINGS_CHUNK.test(path) || HIGHLIGHT_CHUNK.test(path))).toEqual([]);
    expect(firstScreen.filter((path) => EVENT_VALIDATION_CHUNK.test(path))).toEqual([]);

    // settings: its chunk arrives on the first open, and the screen works
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(seen.scripts.some((path) => SETTINGS_CHUNK.test(path))).toBe(true);
    await page.getByTestId('close-settings').click();

    // a reply with a code block: shown, then highlighted once the highlighter's chunk has loaded
    await composer.fill('Show me some code');
    await composer.press('Enter');
    await expect
      .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
      .toBe('finished');
    const assistant = page.locator('.message-assistant').last();
    await expect.poll(() => assistant.locator('code.hljs').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
    expect(await assistant.locator('code').innerText()).toContain('const answer = 42;');
    expect(seen.scripts.some((path) => HIGHLIGHT_CHUNK.test(path))).toBe(true);
    // the run's live events were checked against the contract by the schemas' chunk
    expect(seen.scripts.some((path) => EVENT_VALIDATION_CHUNK.test(path))).toBe(true);

    // review mode: its own chunk, and the session's steps in it
    await page.getByTestId('toggle-review').click();
    const review = page.getByTestId('review');
    await review.locator('.message', { hasText: 'const answer = 42;' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(seen.scripts.some((path) => REVIEW_CHUNK.test(path))).toBe(true);

    expect(cspReports(seen.console)).toEqual([]);
  });
});
