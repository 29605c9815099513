import { describe, expect, it } from 'vitest';
import { useAppInChromium } from './support/app-in-chromium.js';
import { finish } from './support/scripts.js';
import { API_PREFIX } from '../../src/shared/contract/web-transport.js';
import type { MaskedSettings } from '../../src/shared/contract.js';

const UI_TIMEOUT_MS = 20_000;
const BRAVE_KEY = 'brave-key-0123456789';

const e2e = useAppInChromium();

async function savedSettings(): Promise<MaskedSettings> {
  const response = await fetch(`${e2e.app.origin}${API_PREFIX}getSettings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${e2e.app.token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  const reply = (await response.json()) as { ok: boolean; value: MaskedSettings };
  expect(reply.ok).toBe(true);
  return reply.value;
}

describe('the Flows and Web search sections of the settings', () => {
  it('a person sets the flows’ limits, and the search engine, its fallbacks and a key', async () => {
    const { page } = await e2e.open(() => finish('ok'));
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings').waitFor();

    await page.locator('[data-tab="flows"]').click();
    expect(await page.getByTestId('flow-planning.maxStepRuns').inputValue()).toBe('100');
    expect(await page.getByTestId('flow-planAct.timeoutMinutes').inputValue()).toBe('60');
    await page.getByTestId('flow-planning.maxStepRuns').fill('0');
    await page.getByTestId('save-flows').click();
    await page.getByRole('alert').filter({ hasText: 'Step runs per turn' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByTestId('flow-planning.maxStepRuns').fill('12');
    await page.getByTestId('flow-planning.timeoutMinutes').fill('15');
    await page.getByTestId('flow-planAct.maxReplans').fill('1');
    await page.getByTestId('flow-planAct.timeoutMinutes').fill('45');
    await page.getByTestId('save-flows').click();
    await expect
      .poll(async () => (await savedSettings()).planning, { timeout: UI_TIMEOUT_MS })
      .toEqual({ maxStepRuns: 12, timeoutMinutes: 15 });
    expect((await savedSettings()).planAct).toEqual({ maxReplans: 1, maxStepsPerPlan: 30, timeoutMinutes: 45 });

    await page.locator('[data-tab="search"]').click();
    await page.getByTestId('search-engine').selectOption('brave');
    await page.getByTestId('search-brave-key').fill(BRAVE_KEY);
    await page.getByTestId('search-fallback-tavily').check();
    await page.getByTestId('search-searxng-url').fill('http://127.0.0.1:8888');
    await page.getByTestId('save-search').click();
    await expect.poll(async () => (await savedSettings()).search.engine, { timeout: UI_TIMEOUT_MS }).toBe('brave');
    const search = (await savedSettings()).search;
    expect(search.fallbackEngines).toEqual(['bing', 'baidu', 'tavily']);
    expect(search.engines.searxng).toEqual({ baseUrl: 'http://127.0.0.1:8888' });
    // the key is saved, and comes back masked
    expect(search.engines.brave?.apiKey).toBe('••••6789');

    // the saved limits are what the section shows when it opens again
    await page.locator('[data-tab="flows"]').click();
    expect(await page.getByTestId('flow-planning.maxStepRuns').inputValue()).toBe('12');
  });
});
