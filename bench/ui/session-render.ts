/**
 * How the session view copes with a long saved session: a session of 5,000 events is written to a real store,
 * served by the real web server, and opened in Debian's Chromium. Prints the time from navigation to the rows
 * on screen, and frame times while scrolling through the whole timeline.
 *
 *   npx tsx bench/ui/session-render.ts [--events 5000] [--loads 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from 'playwright';
import { openStore } from '../../src/main/store/store.js';
import { startWebServer } from '../../src/main/server/web-server.js';
import { createCoreApi } from '../../src/main/api/core-api.js';
import { SessionService } from '../../src/main/session/session-service.js';
import { AppSettingsSchema } from '../../src/main/config/settings.js';
import { createLlm } from '../../src/main/llm/client.js';
import { ensureRendererBuilt } from '../../tests/e2e/support/renderer-build.js';
import { longSessionEvents } from './long-session-events.js';

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
const SCROLL_PX_PER_FRAME = 400;
const MAX_SCROLL_FRAMES = 900;
const LONG_TASK_MS = 50;

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function timeToRendered(page: Page, url: string, sessionId: string): Promise<number> {
  await page.goto(url);
  await page.waitForFunction((id) => performance.getEntriesByName(`manus:rendered:${id}`).length > 0, sessionId, {
    timeout: 30_000,
  });
  return page.evaluate((id) => performance.getEntriesByName(`manus:rendered:${id}`)[0].startTime, sessionId);
}

interface ScrollFigures {
  frames: number[];
  longTasks: number;
  distancePx: number;
}

/** Scrolls from the end of the timeline to its start, one step per animation frame, timing every frame. */
async function scrollThrough(page: Page): Promise<ScrollFigures> {
  return page.evaluate(
    ({ step, maxFrames, longTaskMs }) =>
      new Promise<ScrollFigures>((resolve) => {
        const list = document.querySelector<HTMLElement>('[data-testid="timeline"]')!;
        let longTasks = 0;
        const observer = new PerformanceObserver((entries) => {
          longTasks += entries.getEntries().filter((entry) => entry.duration >= longTaskMs).length;
        });
        observer.observe({ type: 'longtask' });
        const frames: number[] = [];
        const start = list.scrollTop;
        let last = performance.now();
        const tick = (now: number) => {
          frames.push(now - last);
          last = now;
          list.scrollTop = Math.max(0, list.scrollTop - step);
          if (list.scrollTop <= 0 || frames.length >= maxFrames) {
            observer.disconnect();
            resolve({ frames: frames.slice(1), longTasks, distancePx: start - list.scrollTop });
          } else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    { step: SCROLL_PX_PER_FRAME, maxFrames: MAX_SCROLL_FRAMES, longTaskMs: LONG_TASK_MS },
  );
}

async function main(): Promise<void> {
  const eventCount = argument('events', 5000);
  const loads = argument('loads', 5);
  const rendererDir = await ensureRendererBuilt();
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-bench-ui-'));
  const store = openStore(dataDir);
  const session = store.createSession({
    title: 'A long saved session',
    mode: 'agent',
    model: 'fake-model',
    workspace: dataDir,
    status: 'finished',
  });
  for (const event of longSessionEvents(session.id, eventCount)) {
    store.appendEvent({ ...event, ts: Date.now() } as Parameters<typeof store.appendEvent>[0]);
  }
  const settings = AppSettingsSchema.parse({});
  const sessions = new SessionService({ store, dataDir, settings: () => settings, llmFactory: createLlm });
  const api = createCoreApi({
    sessions,
    store,
    dataDir,
    shell: 'web',
    version: 'bench',
    settings: { read: () => settings, write: () => undefined },
  });
  const server = await startWebServer({ api, rendererDir, port: 0 });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const url = `${server.url}#/s/${session.id}`;
    const loadTimes: number[] = [];
    for (let run = 0; run < loads; run += 1) loadTimes.push(await timeToRendered(page, url, session.id));
    const rows = await page.locator('.timeline-row').count();
    const scroll = await scrollThrough(page);
    const janky = scroll.frames.filter((frame) => frame > FRAME_BUDGET_MS * 1.5).length;

    console.log(`\nLong session view — ${eventCount} events, ${loads} loads, Chromium ${browser.version()}\n`);
    console.table({
      'open: navigation → rows on screen (ms)': {
        p50: Math.round(percentile(loadTimes, 50)),
        p99: Math.round(percentile(loadTimes, 99)),
        max: Math.round(Math.max(...loadTimes)),
      },
      'scroll: frame time (ms)': {
        p50: Number(percentile(scroll.frames, 50).toFixed(1)),
        p99: Number(percentile(scroll.frames, 99).toFixed(1)),
        max: Number(Math.max(...scroll.frames).toFixed(1)),
      },
    });
    console.table({
      'rows in the DOM (virtualised)': rows,
      'frames scrolled': scroll.frames.length,
      'distance scrolled (px)': Math.round(scroll.distancePx),
      'frames over 25 ms': janky,
      'long tasks ≥ 50 ms while scrolling': scroll.longTasks,
    });
  } finally {
    await browser.close();
    await server.close();
    await sessions.close();
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
