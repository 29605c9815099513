import { describe, expect, it } from 'vitest';
import { sequence } from '../support/fake-llm/index.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { finish } from './support/scripts.js';

const UI_TIMEOUT_MS = 20_000;

const e2e = useAppInChromium();

/**
 * Set before the app's scripts: records, when the page opens its events socket, whether the composer was already
 * in the document. Plain JavaScript text: it runs in the page.
 */
const WATCH_SOCKET = `(() => {
  const Native = window.WebSocket;
  window.__socketsOpened = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.__socketsOpened.push(Boolean(document.querySelector('[data-testid="composer-input"]')));
    }
  };
})()`;

describe('the app as it starts', () => {
  it('draws the composer before it opens the events socket, and live events still arrive', async () => {
    const page = await e2e.open(sequence(finish('Ready when you are.')));
    await page.page.addInitScript(WATCH_SOCKET);
    // the token is in this tab's sessionStorage now: the reload is the app opened again
    await page.page.reload();
    const input = page.page.getByTestId('composer-input');
    await input.waitFor({ timeout: UI_TIMEOUT_MS });
    await expect
      .poll(() => page.page.evaluate(() => (window as { __socketsOpened?: boolean[] }).__socketsOpened))
      .toEqual([true]);

    await input.fill('Say hello');
    await input.press('Enter');
    await page.page
      .locator('.message-assistant', { hasText: 'Ready when you are.' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => page.page.getByTestId('session-status').getAttribute('data-status')).toBe('finished');
    expect(page.pageErrors).toEqual([]);
  });

  it('asks for every chunk of the first screen before it waits for the theme script', async () => {
    const page = await e2e.open(sequence(finish('Ready when you are.')));
    const html = await (await fetch(e2e.app.url)).text();
    // the theme script is inline in the built page, the first script in it
    const themeAt = html.indexOf('<script>');
    expect(themeAt).toBeGreaterThan(0);
    const preloads = [...html.matchAll(/<link rel="modulepreload"[^>]* href="\.([^"]+)"/g)];
    // the libraries and the app's own code, parsed side by side
    expect(preloads.length).toBeGreaterThanOrEqual(2);
    expect(preloads.filter((link) => link.index > themeAt).map((link) => link[1])).toEqual([]);
    const preloaded = new Set(preloads.map((link) => link[1]));
    // each was fetched, once
    expect(page.scripts.filter((path) => preloaded.has(path)).sort()).toEqual([...preloaded].sort());
    // the app's own chunk is compiled while it is parsed, off the main thread; the libraries' is not
    const entry = /<script type="module" crossorigin src="\.([^"]+)"/.exec(html)![1];
    const firstLine = async (path: string) => (await (await fetch(new URL(path, e2e.app.url))).text()).split('\n')[0];
    expect(await firstLine(entry)).toBe('//# allFunctionsCalledOnLoad');
    const libraries = [...preloaded].filter((path) => path !== entry);
    for (const path of libraries) expect(await firstLine(path)).not.toBe('//# allFunctionsCalledOnLoad');
  });
});
