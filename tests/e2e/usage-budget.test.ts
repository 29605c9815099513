import { describe, expect, it } from 'vitest';
import type { FakeReply, ScriptRequest } from '../support/fake-llm/index.js';
import { sequence } from '../support/fake-llm/index.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { call, finish } from './support/scripts.js';
import { API_PREFIX } from '../../src/shared/contract/web-transport.js';
import type { MaskedSettings } from '../../src/shared/contract.js';

const UI_TIMEOUT_MS = 20_000;
/** 50,000 tokens a call */
const USAGE = { prompt_tokens: 40_000, completion_tokens: 10_000 };

const e2e = useAppInChromium();

/** A model that never ends: each reply calls a tool again. */
const busy = (request: ScriptRequest): FakeReply => ({
  usage: USAGE,
  toolCalls: [call('no_such_tool', { attempt: request.index })],
});

async function savedSettings(): Promise<MaskedSettings> {
  const response = await fetch(`${e2e.app.origin}${API_PREFIX}getSettings`, {
    method: 'POST',
    headers: { authorization: `Bearer ${e2e.app.token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return ((await response.json()) as { value: MaskedSettings }).value;
}

describe('token usage and budget in the app', () => {
  it("stops a run at the session's budget with a translated banner; the header shows tokens and cost at 1024 px", async () => {
    const { page } = await e2e.open(busy, {
      env: { MANUS_LLM_MODEL: 'gpt-4o-mini' },
      config: { 'agent.maxTotalTokens': '120000' },
    });
    await page.setViewportSize({ width: 1024, height: 768 });
    const input = page.getByTestId('composer-input');
    await input.fill('Work forever');
    await input.press('Enter');

    await expect
      .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: UI_TIMEOUT_MS })
      .toBe('failed');
    const banner = page.locator('[data-problem="token_budget"]');
    await banner.waitFor();
    expect(await banner.innerText()).toContain('Token budget reached');
    expect(await banner.innerText()).toContain('this session used 150,000 tokens');
    // three calls of 50,000 tokens: the third passed 120,000 and no fourth was made
    expect(e2e.app.llm.chatRequests).toHaveLength(3);

    // 120,000 prompt tokens at $0.15 and 30,000 completion tokens at $0.60 per million: $0.036
    const usage = page.getByTestId('session-usage');
    expect(await usage.innerText()).toBe('150k tokens · ≈ $0.04');
    expect(await usage.getAttribute('title')).toContain('estimated cost $0.0360');
    const box = await usage.boundingBox();
    expect(box!.x + box!.width).toBeLessThanOrEqual(1024);
    await e2e.watched.screenshot('token-budget-1024');

    await page.getByTestId('open-settings').click();
    await page.locator('[data-tab="appearance"]').click();
    await page.getByTestId('language').selectOption('zh');
    await page.getByTestId('close-settings').click();
    await expect.poll(() => banner.innerText(), { timeout: UI_TIMEOUT_MS }).toContain('已达到 token 预算');
    expect(await usage.innerText()).toBe('150k 个 token · ≈ $0.04');
    await e2e.watched.screenshot('token-budget-zh');
  });

  it('sets the session budget and a provider price in Settings → Usage & budget', async () => {
    const { page } = await e2e.open(sequence(finish('ok')), {
      config: { 'llm.model': 'my-model', 'llm.apiKey': 'sk-e2e-saved' },
    });
    await page.getByTestId('open-settings').click();
    await page.locator('[data-tab="usage"]').click();
    const budget = page.getByTestId('session-token-budget');
    expect(await budget.inputValue()).toBe('');
    expect(await page.getByTestId('price-default').innerText()).toContain('no list price');

    await budget.fill('-5');
    await page.getByTestId('save-usage').click();
    await page.getByText('The budget is a whole number of tokens above 0').waitFor();
    await budget.fill('250000');
    await page.getByTestId('price-default-input').fill('1.5');
    await page.getByTestId('save-usage').click();
    await page.getByText('Give both prices (0 or more) of default, or neither.').waitFor();
    await page.getByTestId('price-default-output').fill('6');
    await page.getByTestId('save-usage').click();
    await page.getByTestId('saved').waitFor();
    await e2e.watched.screenshot('settings-usage');

    const saved = await savedSettings();
    expect(saved.agent.maxTotalTokens).toBe(250_000);
    expect(saved.llms.default.pricing).toEqual({ prompt: 1.5, completion: 6 });
  });
});
