import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { APP_LIVE_MARK } from '../../../src/renderer/src/shell/app-live-mark.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
export const ARTIFACTS_DIR = join('test-artifacts', 'e2e');
/** how long the app may take to attach its handlers to the page it was opened or reloaded on */
const APP_LIVE_TIMEOUT_MS = 20_000;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

export interface WatchedPage {
  page: Page;
  /** alert/confirm/prompt dialogs that opened: hostile markup that ran would show here */
  dialogs: string[];
  /** uncaught errors in the page */
  pageErrors: string[];
  console: string[];
  /** paths of the scripts the page requested, from its first navigation on */
  scripts: string[];
  screenshot(name: string): Promise<void>;
}

export interface PageOptions {
  /** let a test inject scripts (axe-core) the app's Content-Security-Policy would refuse */
  bypassCSP?: boolean;
  /** the browser's language (navigator.languages), English unless given */
  locale?: string;
}

/**
 * Waits, after a navigation, until the app has attached its handlers (APP_LIVE_MARK) when the page is the app's. Its
 * first screen is in the page itself and takes keys before the app has loaded; a test that typed and pressed Enter
 * in that moment would race the app, as no person can.
 */
async function untilAppLive(page: Page): Promise<void> {
  await page.waitForFunction(
    `!document.getElementById('root') || performance.getEntriesByName(${JSON.stringify(APP_LIVE_MARK)}).length > 0`,
    undefined,
    { timeout: APP_LIVE_TIMEOUT_MS },
  );
}

/** `page` whose goto and reload return once the app is live (untilAppLive) */
function waitingForTheApp(page: Page): Page {
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await untilAppLive(page);
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await untilAppLive(page);
    return response;
  };
  return page;
}

/** A page whose dialogs, errors and console are recorded (dialogs are dismissed so nothing hangs). */
export async function openPage(browser: Browser, url: string, options: PageOptions = {}): Promise<WatchedPage> {
  const page = waitingForTheApp(
    await browser.newPage({
      viewport: { width: 1360, height: 860 },
      bypassCSP: options.bypassCSP,
      locale: options.locale,
    }),
  );
  const watched: WatchedPage = {
    page,
    dialogs: [],
    pageErrors: [],
    console: [],
    scripts: [],
    screenshot: async (name) => {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: false });
    },
  };
  page.on('dialog', (dialog) => {
    watched.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => watched.pageErrors.push(error.message));
  page.on('console', (message) => watched.console.push(`${message.type()}: ${message.text()}`));
  page.on('request', (request) => {
    if (request.resourceType() === 'script') watched.scripts.push(new URL(request.url()).pathname);
  });
  await page.goto(url);
  return watched;
}
