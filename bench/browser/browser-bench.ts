/**
 * Browser benchmark: how long a browser launch takes, and one browser_use action including the page state and
 * the JPEG screenshot, on a simple local page. Run: npx tsx bench/browser/browser-bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { closeSharedBrowsers, leaseBrowser } from '../../src/main/browser/browser-launcher.js';
import { BrowserSettingsSchema } from '../../src/shared/settings/browser-settings.js';
import { browserUseTool } from '../../src/main/tool/browser-use.js';
import { htmlPage, startFixtureServer } from '../../tests/support/fixture-server.js';
import { createToolContext } from '../../tests/support/tool-context.js';

const LAUNCHES = 10;
const ACTIONS = 40;
const WARMUP_ACTIONS = 3;
const TARGETS = { launch: 1_500, action: 300 };

interface Row {
  name: string;
  samples: number[];
  target?: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function measureLaunch(): Promise<number[]> {
  const settings = BrowserSettingsSchema.parse({});
  const samples: number[] = [];
  // each session's browser writes into its own private folder, as the app's do
  const artifactsDir = mkdtempSync(join(tmpdir(), 'manus-bench-browser-'));
  try {
    for (let i = 0; i < LAUNCHES; i++) {
      const started = performance.now();
      const lease = await leaseBrowser(settings, artifactsDir);
      samples.push(performance.now() - started);
      await lease.release();
    }
  } finally {
    rmSync(artifactsDir, { recursive: true, force: true });
  }
  return samples;
}

async function measureActions(): Promise<Row[]> {
  const server = await startFixtureServer({
    '/simple': htmlPage(
      `<h1>Counter</h1><p id="count">0</p>
       <button onclick="document.getElementById('count').textContent = String(Number(document.getElementById('count').textContent) + 1)">Add one</button>
       <a href="/simple">Reload link</a><input placeholder="Name">`,
      'Simple',
    ),
  });
  // the fixture page is on this computer: the bench lets the browser reach loopback, as the browser tests do
  const ctx = createToolContext({ settings: { browser: { allowPrivateNetwork: true } } });
  const run = async (args: Record<string, unknown>) => {
    const result = await browserUseTool.execute(browserUseTool.parameters.parse(args), ctx);
    if (result.error !== undefined || result.images?.[0]?.mimeType !== 'image/jpeg') {
      throw new Error(`benchmark action failed: ${result.error ?? 'no screenshot'}`);
    }
  };
  const rows: Row[] = [];
  try {
    rows.push({
      name: 'first action (launch, context, page, state)',
      samples: [await timed(() => run({ action: 'go_to_url', url: server.url('/simple') }))],
    });
    const clickIndex = 1;
    for (let i = 0; i < WARMUP_ACTIONS; i++) await run({ action: 'click_element', index: clickIndex });
    const clicks: number[] = [];
    for (let i = 0; i < ACTIONS; i++)
      clicks.push(await timed(() => run({ action: 'click_element', index: clickIndex })));
    rows.push({ name: 'click_element + state + screenshot', samples: clicks, target: TARGETS.action });
    const inputs: number[] = [];
    for (let i = 0; i < ACTIONS; i++)
      inputs.push(await timed(() => run({ action: 'input_text', index: 3, text: `name ${i}` })));
    rows.push({ name: 'input_text + state + screenshot', samples: inputs });
    const navigations: number[] = [];
    for (let i = 0; i < ACTIONS; i++)
      navigations.push(await timed(() => run({ action: 'go_to_url', url: server.url('/simple') })));
    rows.push({ name: 'go_to_url (local page) + state + screenshot', samples: navigations });
  } finally {
    await ctx.session.release();
    await closeSharedBrowsers();
    await server.close();
  }
  return rows;
}

function printTable(rows: Row[]): void {
  const header = ['measure', 'n', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'target p50', 'ok'];
  const lines = rows.map((row) => {
    const sorted = [...row.samples].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    return [
      row.name,
      String(sorted.length),
      p50.toFixed(0),
      percentile(sorted, 90).toFixed(0),
      percentile(sorted, 99).toFixed(0),
      sorted.at(-1)!.toFixed(0),
      row.target ? `≤ ${row.target}` : '',
      row.target ? (p50 <= row.target ? 'yes' : 'NO') : '',
    ];
  });
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]!.length)));
  const format = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  console.log(format(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const line of lines) console.log(format(line));
}

const launchRow: Row = { name: 'browser launch', samples: await measureLaunch(), target: TARGETS.launch };
printTable([launchRow, ...(await measureActions())]);
