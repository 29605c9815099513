import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright';
import { sequence } from '../support/fake-llm/index.js';
import { serveApp, type ServedApp } from './support/served-app.js';
import { launchChromium } from './support/browser.js';
import { finish } from './support/scripts.js';

const UI_TIMEOUT_MS = 20_000;
const RUN_TIMEOUT_MS = 60_000;
/** chunks named after the modules they are split at (features/settings/SettingsScreen.tsx, components/highlight-plugin.ts) */
const SETTINGS_CHUNK = /\/assets\/SettingsScreen-[\w-]+\.js$/;
const HIGHLIGHT_CHUNK = /\/assets\/highlight-plugin-[\w-]+\.js$/;
const REVIEW_CHUNK = /\/assets\/ReviewView-[\w-]+\.js$/;
const CODE_REPLY = 'Here it is:\n\n```js\nconst answer = 42;\n```\n';

let browser: Browser;
let app: ServedApp | undefined;
let page: Page | undefined;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

afterEach(async () => {
  await page?.close();
  await app?.stop();
  app = undefined;
  page = undefined;
});

/** The scripts the page asked for, and what Chromium logged about the Content-Security-Policy, as they happen. */
function watchLoading(watchedPage: Page): { scripts: string[]; cspReports: string[] } {
  const seen = { scripts: [] as string[], cspReports: [] as string[] };
  watchedPage.on('request', (request) => {
    if (request.resourceType() === 'script') seen.scripts.push(new URL(request.url()).pathname);
  });
  watchedPage.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) seen.cspReports.push(message.text());
  });
  return seen;
}

describe('the renderer split into chunks', () => {
  it('shows the composer without the settings or highlighter code, and loads each when first used under the CSP', async () => {
    app = await serveApp(sequence(finish(CODE_REPLY)));
    page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    const seen = watchLoading(page);
    await page.goto(app.url);
    const composer = page.getByTestId('composer-input');
    await composer.waitFor({ timeout: UI_TIMEOUT_MS });
    const firstScreen = [...seen.scripts];
    expect(firstScreen.some((path) => path.startsWith('/assets/index-'))).toBe(true);
    expect(firstScreen.filter((path) => SETTINGS_CHUNK.test(path) || HIGHLIGHT_CHUNK.test(path))).toEqual([]);

    // settings: its chunk arrives on the first open, and the screen works
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(seen.scripts.some((path) => SETTINGS_CHUNK.test(path))).toBe(true);
    await page.getByTestId('close-settings').click();

    // a reply with a code block: shown, then highlighted once the highlighter's chunk has loaded
    await composer.fill('Show me some code');
    await composer.press('Enter');
    await expect
      .poll(() => page!.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
      .toBe('finished');
    const assistant = page.locator('.message-assistant').last();
    await expect.poll(() => assistant.locator('code.hljs').count(), { timeout: UI_TIMEOUT_MS }).toBe(1);
    expect(await assistant.locator('code').innerText()).toContain('const answer = 42;');
    expect(seen.scripts.some((path) => HIGHLIGHT_CHUNK.test(path))).toBe(true);

    // review mode: its own chunk, and the session's steps in it
    await page.getByTestId('toggle-review').click();
    const review = page.getByTestId('review');
    await review.locator('.message', { hasText: 'const answer = 42;' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(seen.scripts.some((path) => REVIEW_CHUNK.test(path))).toBe(true);

    expect(seen.cspReports).toEqual([]);
  });
});
