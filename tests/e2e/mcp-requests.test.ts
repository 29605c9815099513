import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright';
import type { Script } from '../support/fake-llm/index.js';
import { runCli } from '../support/cli.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { call, finish, lastToolResult } from './support/scripts.js';

const UI_TIMEOUT_MS = 20_000;
const RUN_TIMEOUT_MS = 60_000;
const ASKING_SERVER = join(import.meta.dirname, '..', 'mcp', 'fixtures', 'asking-server.ts');

const e2e = useAppInChromium();

/** `manus serve` with the asking MCP server added through `manus mcp add`, as a person would. */
async function openWithAskingServer(script: Script, config: Record<string, string> = {}): Promise<Page> {
  const app = await e2e.serve(script, { config });
  const added = await runCli(['mcp', 'add', 'asking', '--', process.execPath, '--import', 'tsx', ASKING_SERVER], {
    MANUS_DATA_DIR: app.dataDir,
  });
  expect(added.code, added.stderr).toBe(0);
  const watched = await e2e.openPage();
  await watched.page.getByTestId('composer-input').waitFor({ timeout: UI_TIMEOUT_MS });
  return watched.page;
}

async function sendTask(page: Page, task: string): Promise<void> {
  await page.getByTestId('composer-input').fill(task);
  await page.getByTestId('composer-input').press('Enter');
}

async function waitFinished(page: Page): Promise<void> {
  await expect
    .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
    .toBe('finished');
}

describe('requests from an MCP server in the conversation (browser, manus serve)', () => {
  it('shows a server form with its defaults, checks it, and sends what the person filled', async () => {
    const script: Script = (request) =>
      request.index === 0
        ? { text: 'Booking.', toolCalls: [call('mcp_asking_book_table', {})] }
        : finish(`Server said: ${lastToolResult(request)}`);
    const page = await openWithAskingServer(script);
    await sendTask(page, 'Book a table');
    const card = page.locator('.ask-card[data-kind="elicitation"][data-status="waiting"]');
    await card.waitFor({ timeout: RUN_TIMEOUT_MS });
    expect(await card.locator('.ask-title').innerText()).toBe('MCP server "asking" asks');
    await expect.poll(() => card.innerText()).toContain('Who is the table for?');
    // defaults are filled in
    expect(await card.locator('#elicitation-guests').inputValue()).toBe('2');
    expect(await card.locator('#elicitation-vegetarian').isChecked()).toBe(false);
    expect(await card.locator('#elicitation-time').inputValue()).toBe('19:00');
    expect(await card.locator('#elicitation-seating option').allInnerTexts()).toEqual(['Choose…', 'Inside', 'Terrace']);
    await e2e.watched.screenshot('elicitation-form');

    // a value that does not fit is named on its field and nothing is sent
    await card.locator('#elicitation-name').fill('A');
    await card.getByTestId('elicitation-accept').click();
    await expect
      .poll(() => card.getByTestId('elicitation-field-name').getAttribute('data-problem'))
      .toBe('at least 2 characters');
    expect(await card.getAttribute('data-status')).toBe('waiting');

    await card.locator('#elicitation-name').fill('Ada Lovelace');
    await card.locator('#elicitation-budget').fill('42.5');
    await card.locator('#elicitation-vegetarian').check();
    await card.locator('#elicitation-time').selectOption('18:00');
    await card.locator('#elicitation-seating').selectOption('terrace');
    await card.getByTestId('elicitation-accept').click();
    await waitFinished(page);

    const sent = { name: 'Ada Lovelace', guests: 2, budget: 42.5, vegetarian: true, time: '18:00', seating: 'terrace' };
    await page
      .locator('.message', { hasText: `Server said: accept ${JSON.stringify(sent)}` })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('.ask-card[data-kind="elicitation"] .ask-answer').innerText()).toBe('✓ Sent');
    await e2e.watched.screenshot('elicitation-sent');
    expect(e2e.watched.pageErrors).toEqual([]);
  });

  it('declines a server form from its card', async () => {
    const script: Script = (request) =>
      request.index === 0
        ? { toolCalls: [call('mcp_asking_book_table', {})] }
        : finish(`Server said: ${lastToolResult(request)}`);
    const page = await openWithAskingServer(script);
    await sendTask(page, 'Book a table');
    const card = page.locator('.ask-card[data-kind="elicitation"][data-status="waiting"]');
    await card.waitFor({ timeout: RUN_TIMEOUT_MS });
    await card.getByTestId('elicitation-decline').click();
    await waitFinished(page);
    await page.locator('.message', { hasText: 'Server said: decline {}' }).waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('.ask-card[data-kind="elicitation"] .ask-answer').innerText()).toBe('✕ Declined');
  });

  it("shows a server's sampling request for approval, then the model's answer", async () => {
    const script: Script = (request) => {
      if (!request.body.tools) return { text: 'Paris' };
      const asked = request.body.messages.some((message: { role: string }) => message.role === 'tool');
      return asked
        ? finish(`Server said: ${lastToolResult(request)}`)
        : { toolCalls: [call('mcp_asking_ask_model', { question: 'Capital of France?' })] };
    };
    const page = await openWithAskingServer(script, { 'approval.policy': 'risky' });
    await sendTask(page, 'Ask the model through the server');
    const waiting = page.locator('.ask-card[data-kind="approval"][data-status="waiting"]');
    await waiting.filter({ hasText: 'mcp_asking_ask_model' }).waitFor({ timeout: RUN_TIMEOUT_MS });
    await waiting.getByTestId('approve').click();
    const sampling = waiting.filter({ hasText: 'sampling:asking' });
    await sampling.waitFor({ timeout: RUN_TIMEOUT_MS });
    await expect.poll(() => sampling.innerText()).toContain('Capital of France?');
    await e2e.watched.screenshot('sampling-approval');
    await sampling.getByTestId('approve').click();
    await waitFinished(page);
    await page
      .locator('.notice', { hasText: 'The model answered MCP server "asking": Paris' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await page
      .locator('.message', { hasText: 'Server said: the model (fake-model) said: Paris' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
  });
});
