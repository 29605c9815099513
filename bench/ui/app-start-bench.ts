/**
 * How soon the app can be typed into: today's renderer (built from BASELINE_REF) and the current one are served
 * by the real web server over the same core and opened in Debian's Chromium, alternating, each in a fresh browser
 * context (cold cache). Prints the time from navigation to the composer on screen and taking keys (its textarea in
 * the page, enabled, laid out, and painted: no earlier than the page's first contentful paint, at the time the page
 * painted it), the script bytes each first screen loaded, their ratio, and the target (at most half of today's
 * time). Beside it: when that paint was presented on the display (the compositor's latency added, a frame or two,
 * alike for both builds), and when the app is live (its handlers attached: Send works), which for today's build is
 * the moment its composer appears. Wall times swing on a busy machine (Chromium's own processes wait for a CPU); the
 * page's main-thread CPU time is the steadier figure.
 *
 *   npx tsx --import ./scripts/raw-text/register.mjs bench/ui/app-start-bench.ts [--runs 15]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright';
import { openStore } from '../../src/main/store/store.js';
import { startWebServer } from '../../src/main/server/web-server.js';
import { webCoreApi } from '../support/web-core.js';
import { ensureRendererBuilt } from '../../tests/e2e/support/renderer-build.js';
import { APP_LIVE_MARK } from '../../src/renderer/src/shell/app-live-mark.js';

/** the commit the renderer split started from: its renderer is "today's build" */
const BASELINE_REF = 'd64eb176d2c56680429310b9d9a6f03a246263d5';
/** what the baseline build needs from its commit; node_modules is this checkout's */
const BASELINE_SOURCES = ['src', 'resources', 'electron.vite.config.ts', 'tsconfig.json', 'package.json'];
const TARGET_RATIO = 0.5;
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const VIEWPORT = { width: 1400, height: 900 };
const READY_MARK = 'bench:composer-ready';
const READY_TIMEOUT_MS = 30_000;

/**
 * Set before the page's own scripts run: marks the first moment the composer's textarea is in the document,
 * enabled and laid out (so it can take focus), and says so on the console once the page has also had its first
 * contentful paint (a prerendered composer is in the document before its stylesheet has come and anything is shown).
 * Plain JavaScript text: tsx helpers do not exist in the page.
 */
const READY_WATCH = `(() => {
  const isReady = () => {
    const input = document.querySelector('[data-testid="composer-input"]');
    return Boolean(input && !input.disabled && input.getClientRects().length > 0);
  };
  const observer = new MutationObserver(() => {
    if (!isReady()) return;
    performance.mark(${JSON.stringify(READY_MARK)});
    observer.disconnect();
    new PerformanceObserver((paints, watch) => {
      if (!paints.getEntriesByName('first-contentful-paint').length) return;
      watch.disconnect();
      console.log(${JSON.stringify(READY_MARK)});
    }).observe({ type: 'paint', buffered: true });
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
})()`;

function argument(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The baseline commit's renderer, built once into the temp folder and reused by later runs. */
function baselineRendererDir(): string {
  const checkout = join(tmpdir(), `manus-renderer-baseline-${BASELINE_REF.slice(0, 12)}`);
  const rendererDir = join(checkout, 'out', 'renderer');
  if (existsSync(join(rendererDir, 'index.html'))) return rendererDir;
  rmSync(checkout, { recursive: true, force: true });
  mkdirSync(checkout, { recursive: true });
  const archive = execFileSync('git', ['archive', BASELINE_REF, ...BASELINE_SOURCES], { maxBuffer: 1 << 28 });
  execFileSync('tar', ['-x', '-C', checkout], { input: archive });
  symlinkSync(resolve('node_modules'), join(checkout, 'node_modules'));
  execFileSync('npx', ['electron-vite', 'build'], { cwd: checkout, stdio: 'inherit' });
  return rendererDir;
}

interface StartFigures {
  /** the composer on screen and taking keys: painted by the page */
  readyMs: number;
  /** the same, once that paint was presented on the display */
  presentedMs: number;
  /** the app's handlers attached (APP_LIVE_MARK); today's build attaches them with its composer: its readyMs */
  liveMs: number;
  /** the first of the app's scripts requested (before it: the browser and the page, alike for both) */
  scriptsRequestedMs: number;
  scriptsReceivedMs: number;
  /** boot.ts, the app's first module, running */
  bootMs: number;
  scriptBytes: number;
  scripts: number;
  /** CPU time of the page's main thread until the composer is ready: steadier than wall time on a busy machine */
  mainThreadCpuMs: number;
  mainThreadCpuUntilLiveMs: number;
}

/** The page's main-thread CPU time (Chromium's ThreadTime metric), in milliseconds. */
async function mainThreadCpuMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const threadTime = metrics.find((metric) => metric.name === 'ThreadTime');
  if (!threadTime) throw new Error('Chromium reported no ThreadTime metric');
  return threadTime.value * 1000;
}

/** Waits until the app has marked itself live (APP_LIVE_MARK). */
async function waitUntilLive(page: Page): Promise<void> {
  await page.waitForFunction(`performance.getEntriesByName(${JSON.stringify(APP_LIVE_MARK)}).length > 0`, undefined, {
    timeout: READY_TIMEOUT_MS,
  });
}

/**
 * A fresh browser context (empty caches) opening the app, until the composer can be typed into; then, for a build
 * that `marksLive`, until the app is live.
 */
async function coldStart(browser: Browser, url: string, marksLive: boolean): Promise<StartFigures> {
  // the measuring script is evaluated as text, which the app's CSP forbids; the app's own code is unaffected
  const context = await browser.newContext({ viewport: VIEWPORT, bypassCSP: true });
  await context.addInitScript(READY_WATCH);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  // told by the page, not polled: polling would take the page's main thread while it starts
  const ready = page.waitForEvent('console', {
    predicate: (message) => message.text() === READY_MARK,
    timeout: READY_TIMEOUT_MS,
  });
  await page.goto(url);
  await ready;
  const cpuMs = await mainThreadCpuMs(cdp);
  if (marksLive) await waitUntilLive(page);
  const cpuUntilLiveMs = await mainThreadCpuMs(cdp);
  const figures = (await page.evaluate(`(() => {
    const inPage = performance.getEntriesByName(${JSON.stringify(READY_MARK)})[0].startTime;
    const firstContent = performance.getEntriesByName('first-contentful-paint')[0];
    // paintTime: the rendering update that painted it (Chromium 136 and later); startTime: its presentation
    const ready = Math.max(inPage, firstContent.paintTime ?? firstContent.startTime);
    const presented = Math.max(inPage, firstContent.startTime);
    const live = performance.getEntriesByName(${JSON.stringify(APP_LIVE_MARK)})[0]?.startTime ?? ready;
    const scripts = performance.getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.startsWith('/assets/') && entry.name.endsWith('.js'))
      .filter((entry) => entry.startTime < live);
    return {
      readyMs: ready,
      presentedMs: presented,
      liveMs: live,
      scriptsRequestedMs: Math.min(...scripts.map((entry) => entry.startTime)),
      scriptsReceivedMs: Math.max(...scripts.map((entry) => entry.responseEnd)),
      bootMs: performance.getEntriesByName('manus:boot')[0].startTime,
      scriptBytes: scripts.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
      scripts: scripts.length,
    };
  })()`)) as Omit<StartFigures, 'mainThreadCpuMs' | 'mainThreadCpuUntilLiveMs'>;
  await context.close();
  return { ...figures, mainThreadCpuMs: cpuMs, mainThreadCpuUntilLiveMs: cpuUntilLiveMs };
}

async function main(): Promise<void> {
  const runs = argument('runs', 15);
  const builds = { today: baselineRendererDir(), current: await ensureRendererBuilt() };
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-bench-start-'));
  const store = openStore(dataDir);
  const api = webCoreApi(store, dataDir);
  const servers = {
    today: await startWebServer({ api, rendererDir: builds.today, port: 0 }),
    current: await startWebServer({ api, rendererDir: builds.current, port: 0 }),
  };
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  try {
    // one unmeasured start each: the server's and Chromium's own first-use costs are not the renderer's
    for (const [build, server] of Object.entries(servers)) await coldStart(browser, server.url, build === 'current');
    const figures: Record<keyof typeof servers, StartFigures[]> = { today: [], current: [] };
    for (let run = 0; run < runs; run += 1) {
      // alternating, and which goes first alternates too: a busy moment on the machine lands on both
      const order = run % 2 ? (['current', 'today'] as const) : (['today', 'current'] as const);
      for (const build of order) figures[build].push(await coldStart(browser, servers[build].url, build === 'current'));
    }
    const today = median(figures.today.map((run) => run.readyMs));
    const current = median(figures.current.map((run) => run.readyMs));
    const medianOf = (runsOf: StartFigures[], figure: (run: StartFigures) => number) =>
      Number(median(runsOf.map(figure)).toFixed(1));
    const row = (runsOf: StartFigures[]) => ({
      'navigation → composer ready, median (ms)': medianOf(runsOf, (run) => run.readyMs),
      'min (ms)': Number(Math.min(...runsOf.map((run) => run.readyMs)).toFixed(1)),
      'max (ms)': Number(Math.max(...runsOf.map((run) => run.readyMs)).toFixed(1)),
      '→ presented (ms)': medianOf(runsOf, (run) => run.presentedMs),
      '→ app live (ms)': medianOf(runsOf, (run) => run.liveMs),
      'app scripts requested': medianOf(runsOf, (run) => run.scriptsRequestedMs),
      received: medianOf(runsOf, (run) => run.scriptsReceivedMs),
      'boot.ts running': medianOf(runsOf, (run) => run.bootMs),
      'main-thread CPU until ready (ms)': medianOf(runsOf, (run) => run.mainThreadCpuMs),
      'until live (ms)': medianOf(runsOf, (run) => run.mainThreadCpuUntilLiveMs),
      scripts: runsOf[0].scripts,
      'script kB': Number((runsOf[0].scriptBytes / 1000).toFixed(1)),
    });

    console.log(`\nApp start — cold browser context, ${runs} runs each alternating, Chromium ${browser.version()}\n`);
    console.table({
      [`today (${BASELINE_REF.slice(0, 7)})`]: row(figures.today),
      current: row(figures.current),
    });
    const ratio = current / today;
    console.log(
      `current / today: ${ratio.toFixed(2)}×  (target ≤ ${TARGET_RATIO}×: ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'})`,
    );
    const presented = (runsOf: StartFigures[]) => median(runsOf.map((run) => run.presentedMs));
    console.log(
      `navigation → composer presented on the display, current / today: ${(presented(figures.current) / presented(figures.today)).toFixed(2)}×`,
    );
    const live = (runsOf: StartFigures[]) => median(runsOf.map((run) => run.liveMs));
    console.log(
      `navigation → app live (Send works), current / today: ${(live(figures.current) / live(figures.today)).toFixed(2)}×`,
    );
    const cpu = (runsOf: StartFigures[]) => median(runsOf.map((run) => run.mainThreadCpuMs));
    console.log(
      `the page's main-thread CPU time until ready, current / today: ${(cpu(figures.current) / cpu(figures.today)).toFixed(2)}×`,
    );
  } finally {
    await browser.close();
    await servers.today.close();
    await servers.current.close();
    await api.close();
    store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
