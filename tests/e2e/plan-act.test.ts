import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import type { ScriptRequest } from '../support/fake-llm/index.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { classify } from '../flow/flow-script.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { CHROMIUM_PATH } from './support/browser.js';
import { call, finish, lastToolResult } from './support/scripts.js';

/** a Docker sandbox and a Chromium start during the run */
const RUN_TIMEOUT_MS = 180_000;
const SCREENS_DIR = '/work/screens';

const CHART_CODE = [
  'import matplotlib',
  "matplotlib.use('Agg')",
  'import matplotlib.pyplot as plt',
  "months, sales = ['Jan', 'Feb', 'Mar'], [120, 150, 180]",
  'plt.bar(months, sales, color="#4a7bd0")',
  "plt.title('Monthly sales')",
  "plt.savefig('/workspace/sales.png')",
  "print('saved', sum(sales))",
].join('\n');

const e2e = useAppInChromium();
let shop: FixtureServer | undefined;
afterEach(async () => {
  await shop?.close();
  shop = undefined;
});

const report = (result: string, attachments: string[] = []) => JSON.stringify({ success: true, result, attachments });

/** The scripted Planner and executors of the demo: a data-analysis step, then a browser step, then the summary. */
function demoScript(shopUrl: string) {
  const priceStep = { id: 'price', description: 'Read the widget price on the shop page', type: 'browser' };
  return (request: ScriptRequest) => {
    const kind = classify(request.body);
    const turns = request.body.messages.filter((m: { role: string }) => m.role === 'assistant').length;
    switch (kind.kind) {
      case 'pa_create':
        return {
          text: JSON.stringify({
            title: 'Sales chart and price check',
            goal: 'Chart the monthly sales and find the widget price',
            language: 'en',
            steps: [{ id: 'chart', description: 'Chart the monthly sales', type: 'data_analysis' }, priceStep],
            message: 'I will chart the sales first, then read the price in the browser.',
          }),
        };
      case 'pa_update':
        return { text: JSON.stringify({ steps: [priceStep] }) };
      case 'pa_step':
        if (kind.id === 'chart') {
          if (turns === 0)
            return { text: 'Drawing the chart.', toolCalls: [call('python_execute', { code: CHART_CODE })] };
          const total = /saved (\d+)/.exec(lastToolResult(request))?.[1] ?? '?';
          return finish(report(`Sales rose from 120 to 180 (total ${total}); the chart is sales.png.`, ['sales.png']));
        }
        if (turns === 0) return { toolCalls: [call('browser_use', { action: 'go_to_url', url: shopUrl })] };
        {
          const price = /Buy for (\d+ EUR)/.exec(lastToolResult(request))?.[1] ?? 'not found';
          return finish(`\`\`\`json\n${report(`The widget costs ${price}.`)}\n\`\`\``);
        }
      case 'pa_summary':
        return {
          text: JSON.stringify({
            message: 'Sales grew 50% from January to March, and the widget costs 42 EUR.',
            attachments: ['sales.png'],
          }),
        };
      default:
        return { text: `unexpected: ${JSON.stringify(request.body.messages).slice(0, 200)}` };
    }
  };
}

/** No executor JSON anywhere the person can read. */
async function expectNoExecutorJson(page: Page): Promise<void> {
  const text = await page.locator('body').innerText();
  expect(text).not.toMatch(/"success"\s*:/);
  expect(text).not.toContain('{"');
}

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENS_DIR, `planact-${name}.png`) });
}

describe('Plan-Act in the app against manus serve', () => {
  it('shows the plan, each step result and the chart, and the summary, with no raw JSON: live, reloaded, reviewed and exported', async () => {
    shop = await startFixtureServer({
      '/widget': htmlPage('<h1>Widget</h1><p>A fine widget.</p><button>Buy for 42 EUR</button>', 'Shop'),
    });
    await e2e.serve(demoScript(shop.url('/widget')), {
      config: { 'browser.executablePath': CHROMIUM_PATH, 'browser.allowPrivateNetwork': 'true' },
    });
    const { page } = await e2e.openPage();
    await page.evaluate(() => localStorage.setItem('manus.theme', 'light'));
    await page.reload();
    await page.locator('[data-mode="plan_act"]').click();
    const input = page.getByTestId('composer-input');
    await input.fill('Chart our monthly sales and check the widget price on the shop page');
    await input.press('Enter');

    const panel = page.getByTestId('plan-panel');
    await panel.waitFor({ timeout: RUN_TIMEOUT_MS });
    expect(await panel.locator('.plan-title').innerText()).toBe('Sales chart and price check');
    expect(await panel.locator('.plan-goal').innerText()).toContain(
      'Chart the monthly sales and find the widget price',
    );
    await expect
      .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
      .toBe('finished');

    // the plan: both steps done, each on the agent its type named, with its result and files
    const steps = panel.locator('.plan-step');
    expect(await steps.count()).toBe(2);
    expect(await panel.locator('.plan-marker').allInnerTexts()).toEqual(['[✓]', '[✓]']);
    expect(await steps.locator('.badge').allInnerTexts()).toEqual(['data_analysis', 'browser']);
    await steps.nth(0).locator('summary').click();
    expect(await steps.nth(0).locator('.plan-step-detail .markdown').innerText()).toContain(
      'Sales rose from 120 to 180',
    );
    expect(await steps.nth(0).locator('.plan-step-files').innerText()).toContain('sales.png');

    // each step's result is a message of its step; the chart the python code saved shows in it
    const chartMessage = page
      .locator('.message-assistant', { hasText: 'Sales rose from 120 to 180 (total 450)' })
      .filter({ has: page.locator('.message-step') });
    expect(await chartMessage.locator('.message-step').innerText()).toBe('step 1');
    const chart = chartMessage.locator('.message-images img').first();
    await chart.waitFor();
    expect(await chart.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(100);
    const priceMessage = page.locator('.message-assistant', { hasText: 'The widget costs 42 EUR.' }).filter({
      has: page.locator('.message-step'),
    });
    expect(await priceMessage.locator('.message-step').innerText()).toBe('step 2');
    await page
      .locator('.message-assistant', { hasText: 'Sales grew 50% from January to March, and the widget costs 42 EUR.' })
      .waitFor();
    await expectNoExecutorJson(page);
    await chartMessage.evaluate((message) => message.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'steps');
    await page
      .locator('.message-assistant', { hasText: 'Sales grew 50%' })
      .evaluate((message) => message.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'summary');

    // after a reload, from the stored events
    await page.reload();
    await priceMessage.filter({ has: page.locator('.message-step') }).waitFor({ timeout: 30_000 });
    await page.locator('.message-assistant', { hasText: 'Sales grew 50%' }).waitFor();
    await expectNoExecutorJson(page);

    // in review, stepping through the saved session
    await page.getByTestId('toggle-review').click();
    const review = page.getByTestId('review');
    await review.waitFor();
    await review.locator('.message', { hasText: 'Sales rose from 120 to 180' }).waitFor();
    await expectNoExecutorJson(page);
    await screenshot(page, 'review');
    await page.getByTestId('toggle-review').click();

    // in the Markdown export
    const row = page.locator('.session-row').first();
    await row.hover();
    await row.getByTestId('session-menu').click();
    const download = page.waitForEvent('download');
    await row.locator('[data-action="export-md"]').click();
    const markdown = readFileSync((await (await download).path())!, 'utf8');
    expect(markdown).toContain('The widget costs 42 EUR.');
    expect(markdown).toContain('![image 1](sales.png)');
    expect(markdown).not.toMatch(/"success"\s*:/);
  });

  it('sends a failed step back to the planner: the app shows why it failed, the replan and the summary, in Chinese', async () => {
    const cached = { id: 'c', description: '改用缓存的价格' };
    await e2e.serve((request: ScriptRequest) => {
      const kind = classify(request.body);
      switch (kind.kind) {
        case 'pa_create':
          return {
            text: JSON.stringify({
              title: '价格报告',
              goal: '写出小部件的价格',
              language: 'zh',
              steps: [
                { id: 'a', description: '整理需求' },
                { id: 'b', description: '读取价格页面' },
              ],
              message: '我会先整理需求，再读取价格。',
            }),
          };
        case 'pa_step':
          return kind.id === 'b'
            ? finish(JSON.stringify({ success: false, result: 'The page answered 503.', attachments: [] }))
            : finish(report(kind.id === 'a' ? '需求已整理。' : '缓存中的价格是 42 欧元。'));
        case 'pa_update':
          return {
            text: JSON.stringify({
              steps: kind.prompt.includes('FAILED') ? [cached] : [{ id: 'b', description: '读取价格页面' }],
            }),
          };
        case 'pa_summary':
          return { text: JSON.stringify({ message: '价格页面不可用，改用缓存：小部件 42 欧元。', attachments: [] }) };
        default:
          return { text: 'unexpected' };
      }
    });
    const { page } = await e2e.openPage();
    await page.evaluate(() => {
      localStorage.setItem('manus.theme', 'light');
      localStorage.setItem('manus.language', 'zh');
    });
    await page.reload();
    await page.locator('[data-mode="plan_act"]').click();
    const input = page.getByTestId('composer-input');
    await input.fill('查一下小部件的价格');
    await input.press('Enter');
    await expect
      .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
      .toBe('finished');

    const replanned = page.locator('.notice[data-code="replanned"]');
    expect(await replanned.innerText()).toBe(
      '第 b 步（读取价格页面）失败：The page answered 503。规划器已重新规划（第 1 / 3 次）：还有 1 步。',
    );
    const panel = page.getByTestId('plan-panel');
    const steps = panel.locator('.plan-step');
    // the panel's code is its own chunk: it may still be arriving when a fast run has finished
    await expect.poll(() => steps.count(), { timeout: 20_000 }).toBe(3);
    expect(await steps.locator('.plan-step-text').allInnerTexts()).toEqual([
      '整理需求',
      '读取价格页面',
      '改用缓存的价格',
    ]);
    expect(await panel.locator('.plan-marker').allInnerTexts()).toEqual(['[✓]', '[!]', '[✓]']);
    expect(await steps.nth(1).locator('.plan-step-error').innerText()).toContain('The page answered 503.');
    await page.locator('.message-assistant', { hasText: '价格页面不可用，改用缓存：小部件 42 欧元。' }).waitFor();
    await expectNoExecutorJson(page);
    await replanned.evaluate((notice) => notice.scrollIntoView({ block: 'center' }));
    await screenshot(page, 'replan');
  });
});
