/**
 * How the session view copes with a long saved session (issue 16): a 10-event and a 50,000-event session are
 * written to one real store, served by the real web server, and opened in Debian's Chromium in the same run.
 * Prints the cold open of the long one beside the short one's (target: at most 1.3×), and the frame rate while
 * scrolling up through the long one, older pages loading as it goes (target: 60 fps).
 *
 *   npx tsx --import ./scripts/raw-text/register.mjs bench/ui/session-render.ts [--events 50000] [--short 10] [--loads 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { openStore, type Store } from '../../src/main/store/store.js';
import { startWebServer } from '../../src/main/server/web-server.js';
import { webCoreApi } from '../support/web-core.js';
import { ensureRendererBuilt } from '../../tests/e2e/support/renderer-build.js';
import { longSessionEvents } from '../support/long-session-events.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const FRAME_BUDGET_MS = 1000 / 60;
const TARGET_OPEN_RATIO = 1.3;
const TARGET_FPS = 60;
/** a hard fling (24,000 px/s) and a brisk wheel scroll (6,000 px/s) */
const SCROLL_SPEEDS_PX_PER_FRAME = [400, 100];
const MAX_SCROLL_FRAMES = 900;
const LONG_TASK_MS = 50;
const VIEWPORT = { width: 1400, height: 900 };

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function renderedMark(sessionId: string): string {
  return JSON.stringify(`manus:rendered:${sessionId}`);
}

/** A fresh browser context (empty caches), the session's URL, until its rows are on screen. */
interface ColdFigures {
  totalMs: number;
  bootMs: number;
  fetchStartMs: number;
  fetchMs: number;
  bytes: number;
}

async function coldOpen(browser: Browser, url: string, sessionId: string): Promise<ColdFigures> {
  const context = await browser.newContext({ viewport: VIEWPORT, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(`performance.getEntriesByName(${renderedMark(sessionId)}).length > 0`, undefined, {
    timeout: 30_000,
  });
  const figures = (await page.evaluate(`(() => {
    const events = performance.getEntriesByType('resource').find((entry) => entry.name.endsWith('/api/getEventWindow'));
    return {
      totalMs: performance.getEntriesByName(${renderedMark(sessionId)})[0].startTime,
      bootMs: performance.getEntriesByName('manus:boot')[0].startTime,
      fetchStartMs: events ? events.startTime : NaN,
      fetchMs: events ? events.responseEnd - events.startTime : NaN,
      bytes: events ? events.encodedBodySize : NaN,
    };
  })()`)) as ColdFigures;
  await context.close();
  return figures;
}

/** The app already open: a click on the session in the sidebar, until its rows are on screen. */
async function openFromSidebar(page: Page, appUrl: string, sessionId: string): Promise<number> {
  await page.goto(appUrl);
  await page.locator(`[data-session="${sessionId}"]`).waitFor();
  const startedAt = (await page.evaluate(`(() => {
    document.querySelector('[data-session="${sessionId}"]').click();
    return performance.now();
  })()`)) as number;
  await page.waitForFunction(`performance.getEntriesByName(${renderedMark(sessionId)}).length > 0`, undefined, {
    timeout: 30_000,
  });
  const renderedAt = (await page.evaluate(
    `performance.getEntriesByName(${renderedMark(sessionId)})[0].startTime`,
  )) as number;
  return renderedAt - startedAt;
}

interface ScrollFigures {
  frames: number[];
  longTasks: number;
  distancePx: number;
}

/**
 * Scrolls from the end of the timeline to its start, one step per animation frame, timing every frame; at the top
 * it keeps ticking while an older page is on its way. Plain JavaScript text: tsx would wrap a TypeScript function
 * with helpers the page does not have.
 */
const SCROLL_SCRIPT = `({ step, maxFrames, longTaskMs }) => new Promise((resolve) => {
  const list = document.querySelector('[data-testid="timeline"]');
  let longTasks = 0;
  const observer = new PerformanceObserver((entries) => {
    longTasks += entries.getEntries().filter((entry) => entry.duration >= longTaskMs).length;
  });
  observer.observe({ type: 'longtask' });
  const frames = [];
  // summed step by step: an older page joining in front moves scrollTop down without the reader moving
  let distancePx = 0;
  let last = performance.now();
  function tick(now) {
    frames.push(now - last);
    last = now;
    const before = list.scrollTop;
    list.scrollTop = Math.max(0, before - step);
    distancePx += before - list.scrollTop;
    if ((list.scrollTop <= 0 && list.dataset.older !== 'more') || frames.length >= maxFrames) {
      observer.disconnect();
      resolve({ frames: frames.slice(1), longTasks, distancePx });
    } else requestAnimationFrame(tick);
  }
  requestAnimationFrame(tick);
})`;

async function scrollThrough(page: Page, step: number): Promise<ScrollFigures> {
  // start from the end of the timeline each time
  await page.evaluate(
    `(() => { const list = document.querySelector('[data-testid="timeline"]'); list.scrollTop = list.scrollHeight; })()`,
  );
  await page.waitForTimeout(500);
  const args = { step, maxFrames: MAX_SCROLL_FRAMES, longTaskMs: LONG_TASK_MS };
  return page.evaluate(`(${SCROLL_SCRIPT})(${JSON.stringify(args)})`) as Promise<ScrollFigures>;
}

function writeSession(store: Store, title: string, eventCount: number, workspace: string): string {
  const session = store.createSession({ title, mode: 'agent', model: 'fake-model', workspace, status: 'finished' });
  for (const event of longSessionEvents(session.id, eventCount)) {
    store.appendEvent({ ...event, ts: Date.now() } as Parameters<typeof store.appendEvent>[0]);
  }
  return session.id;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function summary(values: number[], digits = 0) {
  return {
    p50: Number(percentile(values, 50).toFixed(digits)),
    p99: Number(percentile(values, 99).toFixed(digits)),
    max: Number(Math.max(...values).toFixed(digits)),
  };
}

async function main(): Promise<void> {
  const longCount = argument('events', 50_000);
  const shortCount = argument('short', 10);
  const loads = argument('loads', 5);
  const rendererDir = await ensureRendererBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-bench-ui-'));
  const store = openStore(dataDir);
  const shortId = writeSession(store, 'A short saved session', shortCount, dataDir);
  const longId = writeSession(store, 'A long saved session', longCount, dataDir);
  const api = webCoreApi(store, dataDir);
  const server = await startWebServer({ api, rendererDir, port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  try {
    const cold: Record<'short' | 'long', ColdFigures[]> = { short: [], long: [] };
    // alternated, so both sizes meet the same machine load
    for (let run = 0; run < loads; run += 1) {
      cold.short.push(await coldOpen(browser, `${server.url}#/s/${shortId}`, shortId));
      cold.long.push(await coldOpen(browser, `${server.url}#/s/${longId}`, longId));
    }
    // the measuring scripts are evaluated as text, which the app's CSP forbids; the app's own code is unaffected
    const page = await browser.newPage({ viewport: VIEWPORT, bypassCSP: true });
    const inApp: Record<'short' | 'long', number[]> = { short: [], long: [] };
    for (let run = 0; run < loads; run += 1) {
      inApp.short.push(await openFromSidebar(page, server.url, shortId));
      inApp.long.push(await openFromSidebar(page, server.url, longId));
    }
    const rows = await page.locator('.timeline-row').count();
    const scrolls = [];
    for (const step of SCROLL_SPEEDS_PX_PER_FRAME) scrolls.push({ step, ...(await scrollThrough(page, step)) });
    const rowsAfterScroll = (await page.evaluate(
      `document.querySelector('[data-testid="timeline"]').scrollHeight`,
    )) as number;

    const openShort = percentile(
      cold.short.map((run) => run.totalMs),
      50,
    );
    const openLong = percentile(
      cold.long.map((run) => run.totalMs),
      50,
    );
    console.log(
      `\nLong session view: ${shortCount} and ${longCount} events in one store, ${loads} runs each, Chromium ${browser.version()}\n`,
    );
    console.table({
      [`open cold, ${shortCount} events: navigation → rows (ms)`]: summary(cold.short.map((run) => run.totalMs)),
      [`open cold, ${longCount} events: navigation → rows (ms)`]: summary(cold.long.map((run) => run.totalMs)),
      '  navigation → app script running (ms)': summary(cold.long.map((run) => run.bootMs)),
      '  navigation → last events requested (ms)': summary(cold.long.map((run) => run.fetchStartMs)),
      '  fetching the last events (ms)': summary(cold.long.map((run) => run.fetchMs)),
      '  events received → rows on screen (ms)': summary(
        cold.long.map((run) => run.totalMs - run.fetchStartMs - run.fetchMs),
      ),
      [`open in the running app, ${shortCount} events: click → rows (ms)`]: summary(inApp.short),
      [`open in the running app, ${longCount} events: click → rows (ms)`]: summary(inApp.long),
      ...Object.fromEntries(
        scrolls.map((scroll) => [`scroll ${scroll.step * 60} px/s: frame time (ms)`, summary(scroll.frames, 1)]),
      ),
    });
    console.log(
      `first window: ${(cold.long[0].bytes / 1e6).toFixed(2)} MB of JSON; rows in the DOM (virtualised): ${rows}; timeline height after scrolling: ${rowsAfterScroll} px`,
    );
    console.table(
      Object.fromEntries(
        scrolls.map((scroll) => [
          `scroll ${scroll.step * 60} px/s`,
          {
            frames: scroll.frames.length,
            'distance (px)': Math.round(scroll.distancePx),
            [`frames > ${(FRAME_BUDGET_MS * 1.5).toFixed(0)} ms`]: scroll.frames.filter(
              (frame) => frame > FRAME_BUDGET_MS * 1.5,
            ).length,
            'long tasks ≥ 50 ms': scroll.longTasks,
          },
        ]),
      ),
    );
    const ratio = openLong / openShort;
    console.log(
      `cold open, ${longCount} vs ${shortCount} events (p50): ${openLong.toFixed(0)} ms / ${openShort.toFixed(0)} ms = ${ratio.toFixed(2)}× (target ≤ ${TARGET_OPEN_RATIO}×) ${ratio <= TARGET_OPEN_RATIO ? 'met' : 'NOT met'}`,
    );
    for (const scroll of scrolls) {
      const meanFrame = scroll.frames.reduce((sum, frame) => sum + frame, 0) / scroll.frames.length;
      const fps = 1000 / meanFrame;
      console.log(
        `scrolling ${longCount} events at ${scroll.step * 60} px/s: ${fps.toFixed(1)} fps (mean frame ${meanFrame.toFixed(1)} ms) = ${(fps / TARGET_FPS).toFixed(2)}× of ${TARGET_FPS} fps`,
      );
    }
  } finally {
    await browser.close();
    await server.close();
    await api.close();
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
