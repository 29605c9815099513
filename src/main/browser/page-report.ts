import { setTimeout as delay } from 'node:timers/promises';
import type { Image } from '../../shared/events.js';
import type { BrowserSession } from './browser-session.js';
import { formatPageState } from './page-state.js';
import { isAllowedLocation } from './url-policy.js';
import { wrapUntrusted } from './untrusted-content.js';

/** Tries at reading a page that is still navigating ("execution context was destroyed"). */
const STATE_ATTEMPTS = 3;
/** The state waits this long for the page (and its iframes) to finish loading; slow pages are read as they are. */
const LOAD_WAIT_MS = 3_000;

export interface PageReport {
  text: string;
  images: Image[];
  /** the address of the active tab when it was read */
  url: string;
}

/** Notes about things that happened beside the action: tabs the page opened or had closed, downloads, a refused location. */
async function sideEffects(session: BrowserSession): Promise<string[]> {
  const notes: string[] = [];
  const opened = session.adoptTabOpenedByPage();
  if (opened !== undefined) notes.push(`The page opened tab ${opened}; it is now the active tab.`);
  const tabLimit = session.takeTabLimitNote();
  if (tabLimit) notes.push(tabLimit);
  const page = await session.activePage();
  if (!isAllowedLocation(page.url(), session.settings.allowedSchemes)) {
    const refused = page.url();
    await page.goto('about:blank').catch(() => undefined);
    notes.push(`The page went to ${refused}, which is not an allowed address; the tab was blanked.`);
  }
  notes.push(...session.takeDialogNotes().map((note) => wrapUntrusted(note)));
  for (const download of await session.settleDownloads()) {
    notes.push(
      download.path
        ? `Downloaded ${download.url} to ${download.path} in the workspace.`
        : `The download of ${download.url} failed: ${download.error}.`,
    );
  }
  return notes;
}

/** The page state after an action, as text for the model plus a JPEG screenshot for the UI and vision models. */
export async function reportPage(session: BrowserSession): Promise<PageReport> {
  const notes = await sideEffects(session);
  const page = await session.activePage();
  for (let attempt = 1; ; attempt++) {
    await page.waitForLoadState('load', { timeout: LOAD_WAIT_MS }).catch(() => undefined);
    try {
      // the index script and the screenshot run in the page at the same time
      const [state, screenshot] = await Promise.all([session.state(), session.screenshot()]);
      return { text: [...notes, formatPageState(state)].join('\n'), images: [screenshot], url: state.url };
    } catch (error) {
      if (attempt >= STATE_ATTEMPTS || page.isClosed()) throw error;
      await delay(100 * attempt);
    }
  }
}

/** The session's current page state for an agent's next-step prompt; undefined when the session never browsed. */
export async function browserStateOf(browser: {
  has(): boolean;
  get(): Promise<BrowserSession>;
}): Promise<PageReport | undefined> {
  if (!browser.has()) return undefined;
  const session = await browser.get();
  return session.alive ? reportPage(session) : undefined;
}
