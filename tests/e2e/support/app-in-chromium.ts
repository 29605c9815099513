import type { Browser } from 'playwright';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Script } from '../../support/fake-llm/index.js';
import { launchChromium, openPage, type PageOptions, type WatchedPage } from './browser.js';
import { serveApp, type ServeOptions, type ServedApp } from './served-app.js';

/** how long the app may take to show its composer after the page opens */
const COMPOSER_TIMEOUT_MS = 20_000;

export interface AppInChromium {
  /** starts `manus serve` for the running test */
  serve(script: Script, options?: ServeOptions): Promise<ServedApp>;
  /** opens a watched page on the served app, at its tokened URL unless another is given */
  openPage(url?: string, pageOptions?: PageOptions): Promise<WatchedPage>;
  /** serves, opens and waits for the composer: the app as a person first sees it */
  open(script: Script, options?: ServeOptions, pageOptions?: PageOptions): Promise<WatchedPage>;
  /** the running test's app and page; throw when the test has not started them */
  readonly app: ServedApp;
  readonly watched: WatchedPage;
}

/**
 * The end-to-end fixture of every file under tests/e2e: one Chromium per file; per test, `manus serve` over a fresh
 * data folder and a watched page on it. A failed test leaves a screenshot and prints the server's output and the
 * page's console; after each test the page is closed and the server stopped.
 */
export function useAppInChromium(): AppInChromium {
  let browser: Browser | undefined;
  let app: ServedApp | undefined;
  let watched: WatchedPage | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async (context) => {
    if (context.task.result?.state === 'fail' && watched) {
      await watched.screenshot(`failed-${context.task.name.replace(/\W+/g, '-')}`);
      console.error(`server output:\n${app?.logs()}\npage console:\n${watched.console.join('\n')}`);
    }
    await watched?.page.close();
    await app?.stop();
    app = undefined;
    watched = undefined;
  });

  const fixture: AppInChromium = {
    async serve(script, options) {
      app = await serveApp(script, options);
      return app;
    },
    async openPage(url, pageOptions) {
      if (!browser || !app) throw new Error('serve the app before opening a page');
      watched = await openPage(browser, url ?? app.url, pageOptions);
      return watched;
    },
    async open(script, options, pageOptions) {
      await fixture.serve(script, options);
      const opened = await fixture.openPage(undefined, pageOptions);
      await opened.page.getByTestId('composer-input').waitFor({ timeout: COMPOSER_TIMEOUT_MS });
      return opened;
    },
    get app() {
      if (!app) throw new Error('the test has not served the app');
      return app;
    },
    get watched() {
      if (!watched) throw new Error('the test has not opened a page');
      return watched;
    },
  };
  return fixture;
}
