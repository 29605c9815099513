import { existsSync, lstatSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedBrowsers } from '../../src/main/browser/browser-launcher.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import type { TestToolContext } from '../support/tool-context.js';
import { waitFor } from '../support/wait-for.js';
import { act, actOk, activePage, browserContext } from './browser-test-kit.js';

const MIB = 1024 * 1024;
const QUOTA_MB = 2;
const BIG_BYTES = 20 * MIB;
const CHUNK_BYTES = 256 * 1024;
/** the endless download's time limit: short, so the test is quick */
const DOWNLOAD_LIMIT_MS = 1_500;
const POPUPS = 40;
const MAX_TABS = 2;
const CLICKS = 5;

let server: FixtureServer;
/** this file's own temporary folder: where Playwright would make its playwright-artifacts-* folders */
let testTmp: string;
let savedTmpdir: string | undefined;
const contexts: TestToolContext[] = [];
/** bytes each streamed download sent, and whether its client went away */
const streams = new Map<string, { sent: number; ended: boolean }>();

/** A download body sent in chunks with a pause between them, `total` bytes (endless when undefined). */
async function* slowBody(name: string, total: number | undefined): AsyncGenerator<Buffer> {
  const stream = { sent: 0, ended: false };
  streams.set(name, stream);
  try {
    while (total === undefined || stream.sent < total) {
      yield Buffer.alloc(CHUNK_BYTES, 0x61);
      stream.sent += CHUNK_BYTES;
      await delay(20);
    }
  } finally {
    stream.ended = true;
  }
}

function attachment(name: string, body: AsyncIterable<Buffer>, length?: number) {
  return {
    contentType: 'application/octet-stream',
    headers: {
      'Content-Disposition': `attachment; filename="${name}"`,
      ...(length === undefined ? {} : { 'Content-Length': String(length) }),
    },
    body,
  };
}

function session(options: { quotaMb?: number; browser?: Record<string, unknown> } = {}): {
  ctx: TestToolContext;
  dataDir: string;
} {
  const dataDir = mkdtempSync(join(testTmp, 'data-'));
  const ctx = browserContext({
    dataDir,
    settings: { sandbox: { workspaceQuotaMb: options.quotaMb ?? 0 }, browser: options.browser ?? {} },
  });
  contexts.push(ctx);
  return { ctx, dataDir };
}

/** The private folders of the session's open browsers (one while it browses). */
function privateFolders(dataDir: string): string[] {
  const parent = join(dataDir, 'browser');
  return existsSync(parent) ? readdirSync(parent).map((name) => join(parent, name)) : [];
}

function folderBytes(folder: string): number {
  if (!existsSync(folder)) return 0;
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + lstatSync(join(entry.parentPath, entry.name)).size, 0);
}

function playwrightTempFolders(): string[] {
  return readdirSync(testTmp).filter((name) => name.startsWith('playwright-artifacts-'));
}

beforeAll(async () => {
  testTmp = mkdtempSync(join(tmpdir(), 'manus-write-bounds-'));
  // Playwright makes its default artifacts folder in os.tmpdir(), read when a browser launches
  savedTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = testTmp;
  server = await startFixtureServer({
    '/big.bin': () => attachment('big.bin', slowBody('big', BIG_BYTES), BIG_BYTES),
    '/endless.bin': () => attachment('endless.bin', slowBody('endless', undefined)),
    '/popups': htmlPage(
      // once loaded, so that the navigation itself reports before the flood
      `<h1>Offers</h1><script>addEventListener('load', () => {
         for (let i = 0; i < ${POPUPS}; i++) window.open('/offer?n=' + i);
       });</script>`,
      'Pop-ups',
    ),
    '/popup-per-click': htmlPage(
      `<button id="more" onclick="window.open('/offer?click=' + Date.now())">One more offer</button>`,
      'Offers',
    ),
    '/offer': htmlPage('<p>offer</p>', 'Offer'),
  });
});

afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.session.release()));
  await closeSharedBrowsers();
  await server?.close();
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(testTmp, { recursive: true, force: true });
});

describe('downloads are bounded by the workspace quota and their time limit', () => {
  it('cancels a download larger than what the workspace has left and keeps none of it', async () => {
    const { ctx, dataDir } = session({ quotaMb: QUOTA_MB });
    const reply = await actOk(ctx, { action: 'go_to_url', url: server.url('/big.bin') });
    expect(reply).toMatch(
      new RegExp(
        `download of \\S+/big\\.bin failed: it is larger than the [\\d.]+ MB the workspace has left under its quota ` +
          `of ${QUOTA_MB} MB \\(sandbox\\.workspaceQuotaMb\\); it was cancelled and deleted\\.`,
      ),
    );
    // the browser stopped reading: the server's stream ended long before its 20 MB
    await waitFor(() => streams.get('big')?.ended === true, 10_000, 'the server to see the download cancelled');
    expect(streams.get('big')!.sent).toBeLessThan(BIG_BYTES);
    expect(existsSync(join(ctx.workspace, 'downloads', 'big.bin'))).toBe(false);
    const [folder] = privateFolders(dataDir);
    expect(folderBytes(join(folder!, 'artifacts'))).toBe(0);
  });

  it('cancels an endless download at its time limit; nothing keeps writing, and the private folder goes with the browser', async () => {
    const { ctx, dataDir } = session({ browser: { downloadTimeoutMs: DOWNLOAD_LIMIT_MS } });
    const reply = await actOk(ctx, { action: 'go_to_url', url: server.url('/endless.bin') });
    expect(reply).toMatch(
      new RegExp(
        `download of \\S+/endless\\.bin failed: not finished after ${DOWNLOAD_LIMIT_MS} ms; it was cancelled and deleted\\.`,
      ),
    );
    await waitFor(() => streams.get('endless')?.ended === true, 10_000, 'the server to see the download cancelled');
    const [folder] = privateFolders(dataDir);
    expect(statSync(folder!).mode & 0o777).toBe(0o700);
    const artifacts = join(folder!, 'artifacts');
    const first = folderBytes(artifacts);
    await delay(500);
    expect(folderBytes(artifacts)).toBe(first);
    expect(first).toBe(0);
    // the browser never had a folder of its own in the temporary folder
    expect(playwrightTempFolders()).toEqual([]);

    await ctx.session.release();
    expect(privateFolders(dataDir)).toEqual([]);
    expect(playwrightTempFolders()).toEqual([]);
  });
});

describe('tabs a page opens are bounded', () => {
  it('lets a page that opens pop-ups in a loop as it loads open none of them', async () => {
    const { ctx } = session();
    const reply = await actOk(ctx, { action: 'go_to_url', url: server.url('/popups') });
    expect(reply).toContain(`Opened ${server.url('/popups')}`);
    const page = await activePage(ctx);
    await actOk(ctx, { action: 'scroll_up' });
    // Chromium's pop-up blocker is on: without a click, no pop-up is made, so none loads
    expect(server.requests.filter((request) => request.url.pathname === '/offer')).toEqual([]);
    expect(page.context().pages()).toHaveLength(1);
  });

  it('closes pop-ups past browser.maxTabs as they open and tells the model', async () => {
    const { ctx } = session({ browser: { maxTabs: MAX_TABS } });
    await actOk(ctx, { action: 'go_to_url', url: server.url('/popup-per-click') });
    const page = await activePage(ctx);
    let popupsSeen = 0;
    page.context().on('page', () => popupsSeen++);
    // each real click lets the page open one pop-up
    for (let click = 1; click <= CLICKS; click++) {
      await page.click('#more');
      await waitFor(() => popupsSeen >= click, 10_000, `pop-up ${click} to open`);
    }
    await waitFor(() => page.context().pages().length <= MAX_TABS, 10_000, `at most ${MAX_TABS} pages to stay open`);
    const report = await actOk(ctx, { action: 'scroll_up' });
    // the opener and the first pop-up fill the cap; every later one was closed, and the model is told
    expect(report).toContain(
      `The page tried to open ${CLICKS + 1 - MAX_TABS} more tabs than the ${MAX_TABS} this browser keeps ` +
        '(browser.maxTabs); they were closed as they opened.',
    );
    expect(page.context().pages()).toHaveLength(MAX_TABS);
    const opened = await act(ctx, { action: 'open_tab', url: server.url('/offer') });
    expect(opened.error).toContain(`${MAX_TABS} tabs are open, the most this browser keeps (browser.maxTabs)`);
  });
});
