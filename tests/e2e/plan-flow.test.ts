import { describe, expect, it } from 'vitest';
import { createPlan, finish, planningScript } from '../flow/flow-script.js';
import { useAppInChromium } from './support/app-in-chromium.js';

const UI_TIMEOUT_MS = 30_000;
const STEP_DELAY_MS = 1_200;

const e2e = useAppInChromium();

describe('the plan panel against manus serve', () => {
  it('follows a planning flow step by step: markers, current step, progress, results and agents', async () => {
    await e2e.serve(
      planningScript({
        plan: () => createPlan('Trip report', ['Gather facts', 'Write draft', 'Check draft']),
        step: (step) => ({ ...finish(`Result of step ${step.index}`), delayMs: STEP_DELAY_MS }),
        summary: () => ({ text: 'Summary: the report is ready.' }),
      }),
    );
    const watched = await e2e.openPage();
    const page = watched.page;
    await page.locator('[data-mode="planning"]').click();
    expect(await page.locator('[data-mode="planning"]').getAttribute('aria-checked')).toBe('true');
    const input = page.getByTestId('composer-input');
    await input.fill('Write a trip report');
    await input.press('Enter');

    const panel = page.getByTestId('plan-panel');
    await panel.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await panel.locator('.plan-title').innerText()).toBe('Trip report');
    const steps = panel.locator('.plan-step');
    await expect.poll(() => steps.count()).toBe(3);

    // step 1 running, then done while step 2 runs
    await panel
      .locator('.plan-step[data-status="in_progress"]', { hasText: 'Gather facts' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await panel.locator('.plan-current').innerText()).toContain('Gather facts');
    expect(await steps.nth(0).locator('.plan-marker').innerText()).toBe('[→]');
    expect(await steps.nth(2).locator('.plan-marker').innerText()).toBe('[ ]');
    await watched.screenshot('plan-step-1-running');

    await panel
      .locator('.plan-step[data-status="in_progress"]', { hasText: 'Write draft' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await steps.nth(0).locator('.plan-marker').innerText()).toBe('[✓]');
    expect(await panel.locator('.plan-progress-text').innerText()).toBe('1 of 3 steps');
    expect(Number(await panel.getByRole('progressbar').getAttribute('aria-valuenow'))).toBe(33);
    await watched.screenshot('plan-step-2-running');

    await expect
      .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: UI_TIMEOUT_MS })
      .toBe('finished');
    expect(await panel.locator('.plan-progress-text').innerText()).toBe('3 of 3 steps');
    expect(await panel.locator('.plan-marker').allInnerTexts()).toEqual(['[✓]', '[✓]', '[✓]']);
    expect(await steps.nth(1).locator('.badge').innerText()).toBe('manus');
    await steps.nth(1).locator('summary').click();
    expect(await steps.nth(1).locator('.plan-step-detail .markdown').innerText()).toContain('Result of step 1');
    await page.locator('.step-marker.step-completed').first().waitFor();
    await page.locator('.message-assistant', { hasText: 'Summary: the report is ready.' }).waitFor();
    await watched.screenshot('plan-finished');
  });
});
