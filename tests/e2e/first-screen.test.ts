import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { sequence } from '../support/fake-llm/index.js';
import { en } from '../../src/renderer/src/i18n/en.js';
import { zh } from '../../src/renderer/src/i18n/zh.js';
import { APP_LIVE_MARK } from '../../src/renderer/src/shell/app-live-mark.js';
import { hashSource } from '../../scripts/renderer-build/inline-first-screen.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import type { WatchedPage } from './support/browser.js';
import { finish } from './support/scripts.js';

const UI_TIMEOUT_MS = 20_000;
const COMPOSER = '[data-testid="composer-input"]';

const e2e = useAppInChromium();

/**
 * Holds the app's scripts back until the returned function is called (routing turns the cache off: they are fetched
 * anew).
 */
async function holdAppScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Opens the app's page again with its scripts held back (holdAppScripts): what shows meanwhile is the page's own first
 * screen. The navigation goes through the frame, which does not wait for the app as the fixture's page.goto does.
 */
async function reopenWithScriptsHeld(page: Page): Promise<() => void> {
  const release = await holdAppScripts(page);
  await page.mainFrame().goto(page.url(), { waitUntil: 'commit' });
  await page.locator(COMPOSER).waitFor({ timeout: UI_TIMEOUT_MS });
  return release;
}

const isLive = (page: Page) => page.evaluate((mark) => performance.getEntriesByName(mark).length > 0, APP_LIVE_MARK);

async function untilLive(page: Page): Promise<void> {
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, APP_LIVE_MARK, {
    timeout: UI_TIMEOUT_MS,
  });
}

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));

/** Tags the composer's textarea: a tag still there later means the app kept that element, not a new one. */
async function tagComposer(page: Page): Promise<void> {
  await page.evaluate((selector) => {
    (document.querySelector(selector) as HTMLTextAreaElement & { tagged?: boolean }).tagged = true;
  }, COMPOSER);
}

const composerTagged = (page: Page) =>
  page.evaluate(
    (selector) => (document.querySelector(selector) as (HTMLTextAreaElement & { tagged?: boolean }) | null)?.tagged,
    COMPOSER,
  );

function errorsOf(watched: WatchedPage): string[] {
  return [...watched.pageErrors, ...watched.console.filter((line) => line.startsWith('error:'))];
}

describe('the first screen, in the page before the app has loaded', () => {
  it('takes a task typed before the app has loaded; the app keeps the text, the focus and the textarea, and sends it', async () => {
    const page = await e2e.open(sequence(finish('On it: Kyoto in five days.'), finish('Osaka fits in too.')));
    const release = await reopenWithScriptsHeld(page.page);
    // none of the app's code has run, and the composer already has the keys; the sidebar claims no sessions it
    // has not seen
    expect(await isLive(page.page)).toBe(false);
    expect(await focusedTestId(page.page)).toBe('composer-input');
    expect(await page.page.locator('.sidebar-empty').count()).toBe(0);
    // nor examples before it knows a model is set up to run them (nor first-run steps before it knows none is)
    expect(await page.page.locator('.welcome').count()).toBe(0);
    await page.page.keyboard.type('Plan a trip to Kyoto');
    await tagComposer(page.page);

    release();
    await untilLive(page.page);
    await page.page.locator('.welcome .example').first().waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await composerTagged(page.page)).toBe(true);
    const input = page.page.locator(COMPOSER);
    expect(await input.inputValue()).toBe('Plan a trip to Kyoto');
    expect(await focusedTestId(page.page)).toBe('composer-input');
    await expect.poll(() => page.page.getByTestId('send').isEnabled()).toBe(true);
    // typing goes on where it was, and Enter sends all of it
    await page.page.keyboard.type(' in spring');
    await page.page.keyboard.press('Enter');
    await page.page
      .locator('.message-user', { hasText: 'Plan a trip to Kyoto in spring' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await page.page.locator('.message-assistant', { hasText: 'On it' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => page.page.getByTestId('session-status').getAttribute('data-status')).toBe('finished');

    // opened again on that session: the first screen takes a follow-up, and the app shows the session around it
    const releaseAgain = await reopenWithScriptsHeld(page.page);
    await page.page.keyboard.type('Add Osaka');
    await tagComposer(page.page);
    releaseAgain();
    await untilLive(page.page);
    await page.page.locator('.message-assistant', { hasText: 'On it' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await composerTagged(page.page)).toBe(true);
    expect(await input.inputValue()).toBe('Add Osaka');
    await input.press('Enter');
    await page.page
      .locator('.message-assistant', { hasText: 'Osaka fits in too.' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(errorsOf(page)).toEqual([]);
  });

  it('keeps a search typed into the sidebar before the app has loaded, and the cursor there', async () => {
    const page = await e2e.open(sequence(finish('Kyoto in five days.')));
    const input = page.page.locator(COMPOSER);
    await input.fill('Plan a trip to Kyoto');
    await input.press('Enter');
    await expect.poll(() => page.page.getByTestId('session-status').getAttribute('data-status')).toBe('finished');
    await page.page.goto(e2e.app.url);

    const release = await reopenWithScriptsHeld(page.page);
    await page.page.getByTestId('session-search').click();
    await page.page.keyboard.type('Kyoto');
    release();
    await untilLive(page.page);
    // the composer does not take the cursor from the field the person is typing in
    expect(await focusedTestId(page.page)).toBe('session-search');
    expect(await page.page.getByTestId('session-search').inputValue()).toBe('Kyoto');
    await page.page
      .locator('[data-session-row]', { hasText: 'Plan a trip to Kyoto' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await expect
      .poll(() => page.page.locator('nav.sidebar .sidebar-label').textContent())
      .toBe(en.sessions.results.replace('{{count}}', '1'));
    expect(errorsOf(page)).toEqual([]);
  });

  it('shows nothing of the app on a page opened without its token, then asks for the token', async () => {
    const app = await e2e.serve(sequence(finish('unused')));
    const page = await e2e.openPage(app.origin + '/');
    await page.page.getByTestId('missing-token').waitFor({ timeout: UI_TIMEOUT_MS });
    const release = await holdAppScripts(page.page);
    await page.page.mainFrame().goto(app.origin + '/', { waitUntil: 'commit' });
    // first-screen.js has run once the language templates are gone
    await page.page.waitForFunction(() => document.getElementById('root') && !document.querySelector('template'));
    expect(await page.page.evaluate(() => document.getElementById('root')?.childElementCount)).toBe(0);
    release();
    await page.page.getByTestId('missing-token').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(errorsOf(page)).toEqual([]);
  });

  it.each([
    { system: 'zh-CN', chosen: undefined, language: 'zh' },
    { system: 'zh-CN', chosen: 'en', language: 'en' },
    { system: 'en-US', chosen: 'zh', language: 'zh' },
  ] as const)(
    'is in $language at first paint on a $system system with $chosen chosen, and the app takes it over as it is',
    async ({ system, chosen, language }) => {
      const page = await e2e.open(sequence(finish('Hi.')), {}, { locale: system });
      if (chosen) await page.page.evaluate((choice) => localStorage.setItem('manus.language', choice), chosen);
      const release = await reopenWithScriptsHeld(page.page);
      const texts = language === 'zh' ? zh : en;
      const shown = () =>
        page.page.evaluate((selector) => {
          const input = document.querySelector(selector) as HTMLTextAreaElement;
          return {
            lang: document.documentElement.lang,
            placeholder: input.placeholder,
            prerendered: document.getElementById('root')?.dataset.prerendered,
            templatesLeft: document.querySelectorAll('template').length,
          };
        }, COMPOSER);
      const expected = {
        lang: language === 'zh' ? 'zh-CN' : 'en',
        placeholder: texts.composer.placeholder,
        prerendered: language,
        templatesLeft: 0,
      };
      expect(await isLive(page.page)).toBe(false);
      expect(await shown()).toEqual(expected);
      expect(await focusedTestId(page.page)).toBe('composer-input');
      await page.page.keyboard.type('你好 hello');
      await tagComposer(page.page);

      expect(await page.page.locator('.sidebar-empty').count()).toBe(0);

      release();
      await untilLive(page.page);
      expect(await shown()).toEqual(expected);
      // listed now: this data folder has no session yet, and the sidebar says so
      await expect.poll(() => page.page.locator('.sidebar-empty').textContent()).toBe(texts.app.noSessions);
      expect(await composerTagged(page.page)).toBe(true);
      expect(await page.page.locator(COMPOSER).inputValue()).toBe('你好 hello');
      expect(errorsOf(page)).toEqual([]);
    },
  );

  it("runs under the page's own policy: its inline parts allowed by hash, any other inline script or style refused", async () => {
    const page = await e2e.open(sequence(finish('Hi.')));
    const response = await fetch(e2e.app.url);
    const html = await response.text();
    const policy = response.headers.get('content-security-policy') ?? '';
    const directive = (name: string) => policy.split('; ').find((entry) => entry.startsWith(`${name} `)) ?? '';
    // the stylesheet and the two scripts the first paint needs are in the page, each allowed by its own hash
    const inline = [...html.matchAll(/<(script|style)>([\s\S]*?)<\/\1>/g)];
    expect(inline.map(([, tag]) => tag).sort()).toEqual(['script', 'script', 'style']);
    for (const [, tag, text] of inline) expect(directive(`${tag}-src`).split(' ')).toContain(hashSource(text));
    expect(directive('script-src').split(' ')).toHaveLength(1 + 2 + 1);
    expect(directive('style-src').split(' ')).toHaveLength(1 + 1 + 1);
    // nothing of the page was refused while it loaded
    expect(page.console.filter((line) => /Content Security Policy|Refused to/i.test(line))).toEqual([]);

    const injected = await page.page.evaluate(async () => {
      const violations: string[] = [];
      // inline ones only: zod, in a chunk loaded when idle, probes once whether it may compile with eval
      document.addEventListener('securitypolicyviolation', (event) => {
        if (event.blockedURI === 'inline') violations.push(event.effectiveDirective);
      });
      const script = document.createElement('script');
      script.textContent = 'window.injectedScriptRan = true';
      document.body.append(script);
      const style = document.createElement('style');
      style.textContent = 'body { visibility: hidden }';
      document.head.append(style);
      await new Promise((resolve) => setTimeout(resolve, 100));
      return {
        ran: (window as { injectedScriptRan?: boolean }).injectedScriptRan === true,
        hidden: getComputedStyle(document.body).visibility === 'hidden',
        // each refusal is reported by both policies, the header's and the meta tag's
        violations: [...new Set(violations)].sort(),
      };
    });
    expect(injected).toEqual({ ran: false, hidden: false, violations: ['script-src-elem', 'style-src-elem'] });
  });
});
