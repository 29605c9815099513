import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { sequence } from '../support/fake-llm/index.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { finish } from './support/scripts.js';
import { openStore } from '../../src/main/store/store.js';
import { DEFAULT_EVENT_WINDOW } from '../../src/shared/contract.js';
import type { CoreEventInput } from '../../src/shared/events.js';

const UI_TIMEOUT_MS = 20_000;
const TOTAL_EVENTS = 3000;
/** the first event the opening window holds; the split tool call's `calling` event is just before it */
const WINDOW_START = TOTAL_EVENTS - DEFAULT_EVENT_WINDOW;
const SPLIT_ARGS = { command: 'echo split-across-windows' };

const chromium = useAppInChromium();

/** Numbered replies, and one bash call whose `calling` event falls just before the opening window. */
function longSession(sessionId: string): CoreEventInput[] {
  return Array.from({ length: TOTAL_EVENTS }, (_, index): CoreEventInput => {
    if (index === WINDOW_START - 1 || index === WINDOW_START) {
      const calling = index === WINDOW_START - 1;
      return {
        type: 'tool',
        sessionId,
        callId: 'split',
        name: 'bash',
        kind: 'bash',
        args: SPLIT_ARGS,
        status: calling ? 'calling' : 'done',
        ...(calling ? {} : { output: 'split-across-windows', durationMs: 12 }),
      };
    }
    return {
      type: 'message',
      sessionId,
      messageId: `m${index}`,
      role: 'assistant',
      text: `Reply number ${index}.`,
      delta: false,
    };
  });
}

/** Writes the session straight through the store of the running server's data folder. */
function writeLongSession(dataDir: string): string {
  const store = openStore(dataDir);
  try {
    const session = store.createSession({
      title: 'Three thousand events',
      mode: 'agent',
      model: 'fake-model',
      workspace: dataDir,
      status: 'finished',
    });
    for (const event of longSession(session.id)) store.appendEvent({ ...event, ts: Date.now() });
    return session.id;
  } finally {
    store.close();
  }
}

/** The reply's row lies within the timeline's visible area. */
function replyOnScreen(page: Page, index: number): Promise<boolean> {
  return page.evaluate((text) => {
    const list = document.querySelector('[data-testid="timeline"]');
    const row = [...document.querySelectorAll('.timeline-row')].find((element) => element.textContent?.includes(text));
    if (!list || !row) return false;
    const shown = list.getBoundingClientRect();
    const box = row.getBoundingClientRect();
    return box.bottom > shown.top && box.top < shown.bottom;
  }, `Reply number ${index}.`);
}

/** The API requests the page has made (resource timing keeps them), by request name. */
function requestedPaths(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.startsWith('/api/'))
      .map((path) => path.slice('/api/'.length)),
  );
}

function scrollTimelineTo(page: Page, top: number): Promise<void> {
  return page.evaluate((offset) => {
    document.querySelector('[data-testid="timeline"]')!.scrollTop = offset;
  }, top);
}

describe('a long saved session', () => {
  it('opens on its last events and shows older ones as the person scrolls up', async () => {
    const app = await chromium.serve(sequence(finish('unused')));
    const sessionId = writeLongSession(app.dataDir);
    const watched = await chromium.openPage(`${app.url}#/s/${sessionId}`);
    const shown = watched.page;
    const timeline = shown.getByTestId('timeline');

    await expect.poll(() => replyOnScreen(shown, TOTAL_EVENTS - 1), { timeout: UI_TIMEOUT_MS }).toBe(true);
    expect(await timeline.getAttribute('data-older')).toBe('more');
    expect(await requestedPaths(shown)).not.toContain('getEvents');

    // at the top of the last events, the page before them joins in front and the rows on screen stay put
    await scrollTimelineTo(shown, 0);
    await shown
      .locator('.timeline-row', { hasText: `Reply number ${WINDOW_START - 2}.` })
      .waitFor({ state: 'attached' });
    expect(await replyOnScreen(shown, WINDOW_START + 1)).toBe(true);
    // the tool call that began in the older page is one finished call, with its command
    const split = shown.locator('.tool-card[data-tool="bash"]');
    expect(await split.count()).toBe(1);
    expect(await split.getAttribute('class')).toContain('tool-done');
    expect(await split.locator('.tool-summary').textContent()).toContain('echo split-across-windows');

    // scrolling on up reaches the very first reply, page by page
    await expect
      .poll(
        async () => {
          await scrollTimelineTo(shown, 0);
          return replyOnScreen(shown, 0);
        },
        { timeout: UI_TIMEOUT_MS * 2 },
      )
      .toBe(true);
    expect(await timeline.getAttribute('data-older')).toBe('none');
    const paths = await requestedPaths(shown);
    expect(paths.filter((path) => path === 'getEventWindow')).toHaveLength(TOTAL_EVENTS / DEFAULT_EVENT_WINDOW);
    expect(paths).not.toContain('getEvents');
    expect(watched.pageErrors).toEqual([]);
  });
});
