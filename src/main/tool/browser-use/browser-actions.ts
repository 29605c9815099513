import { setTimeout as delay } from 'node:timers/promises';
import type { Frame, Locator, Page, Request } from 'playwright';
import type { AppSettings } from '../../../shared/settings/app-settings.js';
import type { Llm } from '../../llm/types.js';
import type { BrowserSession } from '../../browser/browser-session.js';
import { LINK_OF, SCROLL_BY, SELECT_OPTIONS_OF, type DropdownOption } from '../../browser/dom-index-script.js';
import { checkLinkTarget, checkNavigableUrl } from '../../browser/url-policy.js';
import { wrapUntrusted } from '../../browser/untrusted-content.js';
import { searchWeb } from '../../search/search-runner.js';
import type { BrowserAction } from './browser-use-params.js';
import { extractContent } from './extract-content.js';

/** How long a click on a target=_blank link waits for its new tab. */
const POPUP_WAIT_MS = 2_000;
/** How long after a click its navigation request (or download) may take to show up; a busy machine is slow. */
const NAVIGATION_GRACE_MS = 300;
/** How long an aborted load waits for the download it may have turned into. */
const ABORTED_LOAD_DOWNLOAD_WAIT_MS = 1_500;
/** How long an address that turned into a download may take to report it. */
const DOWNLOAD_START_WAIT_MS = 5_000;
/** Results the browser action web_search lists besides the one it opens. */
const SEARCH_RESULTS_SHOWN = 5;

export interface ActionEnvironment {
  session: BrowserSession;
  settings: AppSettings;
  llm: Llm | undefined;
  signal: AbortSignal;
  onProgress: (text: string) => void;
}

/** An error's message without Playwright's call log, which only makes sense to Playwright developers. */
export function readableError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const withoutLog = message.split(/\n\s*(?:Call log:|=+ logs =+)/)[0] ?? message;
  return withoutLog.replace(/^(locator|page|frame|keyboard|elementHandle)\.\w+: /, '').trim();
}

/**
 * Clicks, and when the click started loading a page, waits until that load either commits, turns into a
 * download or fails, so the state that follows shows the outcome (a download has no other signal).
 */
async function clickAndFollow(page: Page, element: Locator, timeoutMs: number): Promise<void> {
  let navigation: Request | undefined;
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  let noticeNavigation: () => void = () => undefined;
  const navigationSeen = new Promise<void>((resolve) => (noticeNavigation = resolve));
  const onRequest = (request: Request) => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
    navigation ??= request;
    noticeNavigation();
  };
  const onNavigated = (frame: Frame) => {
    if (navigation && frame === page.mainFrame()) settle();
  };
  let downloadWait: NodeJS.Timeout | undefined;
  const onFailed = (request: Request) => {
    // a load that turns into a download is aborted first; the download event follows, sometimes a while later
    if (request === navigation) downloadWait ??= setTimeout(settle, ABORTED_LOAD_DOWNLOAD_WAIT_MS);
  };
  const onDownload = () => settle();
  page.on('request', onRequest).on('framenavigated', onNavigated).on('requestfailed', onFailed);
  page.on('download', onDownload).on('close', onDownload);
  let timer: NodeJS.Timeout | undefined;
  try {
    // only links and form controls start loads by themselves; a plain button's click returns at once
    const mayNavigate = await element
      .evaluate((node) => node.closest('a[href], form, [type="submit"], [formaction]') !== null)
      .catch(() => false);
    await element.click();
    // the click resolves before the browser reports the request it started: give it a moment to appear
    if (!navigation && mayNavigate) {
      await Promise.race([
        navigationSeen,
        settled,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, NAVIGATION_GRACE_MS))),
      ]);
      clearTimeout(timer);
    }
    if (!navigation) return;
    await Promise.race([settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  } finally {
    clearTimeout(timer);
    clearTimeout(downloadWait);
    page.off('request', onRequest).off('framenavigated', onNavigated).off('requestfailed', onFailed);
    page.off('download', onDownload).off('close', onDownload);
  }
}

async function open(session: BrowserSession, page: Page, url: string): Promise<string> {
  // the guard would refuse it anyway; asking first gives the model a clear reason instead of a proxy error
  await session.egressGuard?.checkUrl(url);
  const downloadsBefore = session.downloadCount;
  try {
    const response = await page.goto(url, { waitUntil: 'domcontentloaded' });
    const status = response?.status();
    return status && status >= 400 ? `Opened ${url} (HTTP ${status})` : `Opened ${url}`;
  } catch (error) {
    if (!/Download is starting/i.test(readableError(error))) throw error;
    if (session.downloadCount === downloadsBefore) {
      await page.waitForEvent('download', { timeout: DOWNLOAD_START_WAIT_MS }).catch(() => undefined);
    }
    return `${url} is a file: it is being downloaded`;
  }
}

async function dropdownOptions(env: ActionEnvironment, index: number): Promise<DropdownOption[]> {
  const element = await env.session.elementByIndex(index);
  const options = await element.evaluate(SELECT_OPTIONS_OF);
  if (!options) throw new Error(`Element ${index} is not a dropdown (<select>); click it to open custom menus.`);
  return options;
}

function formatOptions(options: DropdownOption[]): string {
  return options
    .map(
      (option) => `${option.index}: "${option.text}" (value="${option.value}")${option.selected ? ' [selected]' : ''}`,
    )
    .join('\n');
}

async function pressKeys(page: Page, keys: string): Promise<void> {
  for (const key of keys.trim().split(/\s+/)) {
    try {
      await page.keyboard.press(key);
    } catch (error) {
      if (!/Unknown key/i.test(readableError(error))) throw error;
      throw new Error(
        `"${key}" is not a key name. Use key names such as Enter, Tab, Escape, ArrowDown, Control+A ` +
          '(separate several with spaces), or input_text to type text.',
      );
    }
  }
}

async function scrollToText(page: Page, text: string): Promise<string> {
  for (const frame of page.frames()) {
    const match = frame.getByText(text, { exact: false }).first();
    if ((await match.count().catch(() => 0)) === 0) continue;
    await match.scrollIntoViewIfNeeded();
    return `Scrolled to the text "${text}"`;
  }
  throw new Error(`The text "${text}" is not on the page.`);
}

/** The index of the first URL the browser may open (its scheme allowed, its host not private), if any. */
async function firstOpenable(
  session: BrowserSession,
  urls: string[],
  allowedSchemes: string[],
): Promise<number | undefined> {
  for (const [index, url] of urls.entries()) {
    try {
      checkNavigableUrl(url, allowedSchemes);
      await session.egressGuard?.checkUrl(url);
      return index;
    } catch {
      // refused: a search result is no reason to fail the search, the next one may do
    }
  }
  return undefined;
}

async function searchAndOpen(env: ActionEnvironment, query: string): Promise<string> {
  const outcome = await searchWeb({ query, numResults: SEARCH_RESULTS_SHOWN }, env.settings.search, {
    signal: env.signal,
    onProgress: env.onProgress,
  });
  const rank = await firstOpenable(
    env.session,
    outcome.results.map((result) => result.url),
    env.settings.browser.allowedSchemes,
  );
  const listing = outcome.results
    .map((result, i) => `${i + 1}. ${result.title} — ${result.url}\n   ${result.snippet}`)
    .join('\n');
  const results = `Search results for "${query}" (${outcome.engine}):\n${wrapUntrusted(listing)}`;
  if (rank === undefined) return `${results}\nNone of the results has an address the browser may open.`;
  const opened = await open(env.session, await env.session.activePage(), outcome.results[rank]!.url);
  const which = rank === 0 ? 'the first result' : `result ${rank + 1}: the ones before it may not be opened`;
  return `${results}\n${opened} (${which}).`;
}

/** Performs one action on the session's browser and says what happened; failures throw with a readable message. */
export async function runBrowserAction(action: BrowserAction, env: ActionEnvironment): Promise<string> {
  const { session, settings } = env;
  const allowedSchemes = settings.browser.allowedSchemes;
  switch (action.action) {
    case 'go_to_url':
      return open(session, await session.activePage(), checkNavigableUrl(action.url, allowedSchemes));
    case 'click_element': {
      const element = await session.elementByIndex(action.index);
      const page = await session.activePage();
      const link = await element.evaluate(LINK_OF);
      if (link) checkLinkTarget(link.href, page.url(), allowedSchemes);
      // a link into a new tab opens it a moment after the click: wait for it so the state shows that tab
      const opensTab = link && !['', '_self', '_parent', '_top'].includes(link.target.toLowerCase());
      const popup = opensTab
        ? page.waitForEvent('popup', { timeout: POPUP_WAIT_MS }).catch(() => undefined)
        : undefined;
      await clickAndFollow(page, element, settings.browser.navigationTimeoutMs);
      await popup;
      return `Clicked element ${action.index}`;
    }
    case 'input_text': {
      const element = await session.elementByIndex(action.index);
      await element.fill(action.text);
      return `Typed "${action.text}" into element ${action.index}`;
    }
    case 'scroll_down':
    case 'scroll_up': {
      const direction: 1 | -1 = action.action === 'scroll_down' ? 1 : -1;
      const page = await session.activePage();
      const moved = await page.evaluate(SCROLL_BY, { amount: action.scroll_amount ?? null, direction });
      const where = direction > 0 ? 'down' : 'up';
      return moved === 0
        ? `Could not scroll ${where}: already at the ${direction > 0 ? 'bottom' : 'top'}`
        : `Scrolled ${where} ${Math.abs(moved)} pixels`;
    }
    case 'scroll_to_text':
      return scrollToText(await session.activePage(), action.text);
    case 'send_keys':
      await pressKeys(await session.activePage(), action.keys);
      return `Pressed ${action.keys}`;
    case 'get_dropdown_options': {
      const options = await dropdownOptions(env, action.index);
      return `Options of dropdown ${action.index} (choose one with select_dropdown_option and its text):\n${wrapUntrusted(formatOptions(options))}`;
    }
    case 'select_dropdown_option': {
      const options = await dropdownOptions(env, action.index);
      const wanted =
        options.find((o) => o.text === action.text || o.value === action.text) ??
        options.find((o) => o.text.toLowerCase() === action.text.trim().toLowerCase());
      if (!wanted) {
        throw new Error(
          `Dropdown ${action.index} has no option "${action.text}". Its options:\n${formatOptions(options)}`,
        );
      }
      await (await session.elementByIndex(action.index)).selectOption({ index: wanted.index });
      return `Selected "${wanted.text}" in dropdown ${action.index}`;
    }
    case 'go_back': {
      const page = await session.activePage();
      const before = page.url();
      await page.goBack({ waitUntil: 'domcontentloaded' });
      return page.url() === before ? 'There is no previous page in this tab' : 'Went back';
    }
    case 'refresh':
      await (await session.activePage()).reload({ waitUntil: 'domcontentloaded' });
      return 'Reloaded the page';
    case 'web_search':
      return searchAndOpen(env, action.query);
    case 'wait':
      await delay(action.seconds * 1000, undefined, { signal: env.signal });
      return `Waited ${action.seconds} seconds`;
    case 'extract_content':
      return extractContent(await session.activePage(), action.goal, {
        llm: env.llm,
        maxContentLength: settings.browser.maxContentLength,
        signal: env.signal,
      });
    case 'switch_tab':
      await session.switchTab(action.tab_id);
      return `Switched to tab ${action.tab_id}`;
    case 'open_tab': {
      const url = checkNavigableUrl(action.url, allowedSchemes);
      const page = await session.openTab();
      return `${await open(session, page, url)} in new tab ${session.activeTab}`;
    }
    case 'close_tab': {
      const id = action.tab_id ?? session.activeTab;
      if (id === undefined) return 'No tab is open';
      await session.closeTab(id);
      return `Closed tab ${id}`;
    }
  }
}
