import { describe, expect, it } from 'vitest';
import type { FileChooser, Page } from 'playwright';
import { SETTINGS_TABS } from '../../src/renderer/src/features/settings/settings-types.js';
import type { Script } from '../support/fake-llm/index.js';
import { createPlan, finish, planningScript } from '../flow/flow-script.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { axeFindingsInBothThemes } from './support/axe.js';
import { controlsWithoutFocusRing } from './support/focus-ring.js';
import { call } from './support/scripts.js';

const UI_TIMEOUT_MS = 30_000;

const e2e = useAppInChromium();

/** A planning run whose steps each write a file: tool cards, a plan panel and a summary to look at. */
const plannedWithTools = planningScript({
  plan: () => createPlan('Trip report', ['Gather facts', 'Write draft']),
  step: (step) =>
    step.first
      ? {
          text: `Working on ${step.text}.`,
          toolCalls: [
            call('str_replace_editor', { command: 'create', path: `step-${step.index}.md`, file_text: step.text }),
          ],
        }
      : finish(`Result of step ${step.index}`),
  summary: () => ({ text: 'Summary: **the report** is ready.' }),
});

async function runPlannedTask(page: Page): Promise<void> {
  await page.locator('[data-mode="planning"]').click();
  await page.getByTestId('composer-input').fill('Write a trip report');
  await page.getByTestId('composer-input').press('Enter');
  await expect
    .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: UI_TIMEOUT_MS })
    .toBe('finished');
  await page.getByTestId('plan-panel').waitFor();
  await expect.poll(() => page.locator('.tool-card').count()).toBeGreaterThan(1);
}

/** The controls a person reaches with Tab, in order, from the composer's text box to its Send button. */
async function tabStopsInComposer(page: Page): Promise<string[]> {
  await page.getByTestId('composer-input').focus();
  const stops: string[] = [];
  for (let presses = 0; presses < 12; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element?.closest('.composer')) return undefined;
      return element.dataset.testid ?? element.dataset.mode ?? element.className;
    });
    if (!focused) break;
    stops.push(focused);
  }
  return stops;
}

describe('accessibility (WCAG 2.1 AA, axe-core) in the light and dark themes', () => {
  it('has no serious or critical findings on the welcome, a planned session, review, settings and a dialog', async () => {
    const { page } = await e2e.open(plannedWithTools, {}, { bypassCSP: true });
    const findings: string[] = [];
    // the composer's text is typed so Send is enabled: a disabled button is exempt from contrast
    await page.getByTestId('composer-input').fill('Write a trip report');
    findings.push(...(await axeFindingsInBothThemes(page, 'welcome')));

    await page.getByTestId('composer-input').fill('');
    await runPlannedTask(page);
    await page.locator('.tool-card .tool-card-head').first().click();
    await page.locator('.tool-card-body').first().waitFor();
    findings.push(...(await axeFindingsInBothThemes(page, 'session with a plan and tool cards')));

    await page.getByTestId('toggle-files').click();
    await page.locator('.side-panel [data-file]').first().waitFor({ timeout: UI_TIMEOUT_MS });
    findings.push(...(await axeFindingsInBothThemes(page, 'workspace files')));

    await page.getByTestId('toggle-review').click();
    await page.getByTestId('review').locator('[data-mark]').first().waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByTestId('review').locator('[data-mark="tool"]').first().click();
    findings.push(...(await axeFindingsInBothThemes(page, 'review')));
    await page.getByTestId('review-exit').click();

    const row = page.locator('[data-session-row]').first();
    await row.getByTestId('session-menu').click();
    findings.push(...(await axeFindingsInBothThemes(page, 'session menu')));
    await row.locator('[data-action="delete"]').click();
    await page.getByTestId('confirm-dialog').waitFor();
    findings.push(...(await axeFindingsInBothThemes(page, 'delete dialog')));
    await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.getByTestId('open-settings').click();
    for (const tab of SETTINGS_TABS) {
      await page.locator(`[data-tab="${tab}"]`).click();
      await expect.poll(() => page.locator(`[data-tab="${tab}"]`).getAttribute('class')).toContain('active');
      findings.push(...(await axeFindingsInBothThemes(page, `settings: ${tab}`)));
    }
    expect(findings).toEqual([]);
  });

  it('reaches every composer control with Tab, the attach button included, and shows where the focus is', async () => {
    const { page } = await e2e.open(plannedWithTools);
    // listening from the start: Playwright turns on Chromium's file-chooser interception asynchronously,
    // and a key pressed before it is on opens a chooser no event reports
    const choosers: FileChooser[] = [];
    page.on('filechooser', (chooser) => choosers.push(chooser));
    await page.getByTestId('composer-input').fill('Write a trip report');
    const stops = await tabStopsInComposer(page);
    expect(stops).toEqual(expect.arrayContaining(['agent', 'model-picker', 'attach-input', 'send']));
    expect(stops.indexOf('attach-input')).toBeLessThan(stops.indexOf('send'));

    // the focused file input is invisible: its paperclip shows the ring
    await page.getByTestId('composer-input').focus();
    while ((await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))) !== 'attach-input') {
      await page.keyboard.press('Tab');
    }
    const ring = await page.locator('.attach-button').evaluate((label) => ({
      style: getComputedStyle(label).outlineStyle,
      width: getComputedStyle(label).outlineWidth,
    }));
    expect(ring).toEqual({ style: 'solid', width: '2px' });
    // Space on it opens the file chooser, as a click would
    await page.keyboard.press('Space');
    await expect.poll(() => choosers.length, { timeout: UI_TIMEOUT_MS }).toBe(1);
    expect(choosers[0]?.isMultiple()).toBe(true);
  });

  it('shows a focus ring on every control reached with Tab, in a session and in settings', async () => {
    const { page } = await e2e.open(plannedWithTools);
    await runPlannedTask(page);
    expect(await controlsWithoutFocusRing(page)).toEqual([]);
    // a session's menu button, reached with Tab, takes the place of its status badge instead of covering it
    await page.locator('[data-session-row] .session-link').first().focus();
    await page.keyboard.press('Tab');
    const row = page.locator('[data-session-row]').first();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('session-menu');
    await expect
      .poll(() => row.locator('.status-badge').evaluate((badge) => getComputedStyle(badge).visibility))
      .toBe('hidden');
    await page.getByTestId('open-settings').click();
    for (const tab of ['providers', 'sandbox'] as const) {
      await page.locator(`[data-tab="${tab}"]`).click();
      await expect.poll(() => page.locator(`[data-tab="${tab}"]`).getAttribute('class')).toContain('active');
      expect(await controlsWithoutFocusRing(page)).toEqual([]);
    }
  });

  it('has no serious or critical findings on a question, an approval card and a failed run', async () => {
    const script: Script = (request) => {
      if (request.index === 0) return { toolCalls: [call('ask_human', { inquire: 'Which **file name**?' })] };
      if (request.index === 1)
        return { toolCalls: [call('str_replace_editor', { command: 'create', path: 'a.md', file_text: 'a' })] };
      return { fault: 'status', status: 400, message: 'The request was malformed.' };
    };
    const { page } = await e2e.open(script, { config: { 'approval.policy': 'risky' } }, { bypassCSP: true });
    await page.getByTestId('composer-input').fill('Write a file');
    await page.getByTestId('composer-input').press('Enter');
    const findings: string[] = [];
    // the question's card, and the message box that answers it (issue 14)
    await page.locator('.ask-card[data-status="waiting"]').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByTestId('composer-answering').waitFor({ timeout: UI_TIMEOUT_MS });
    findings.push(...(await axeFindingsInBothThemes(page, 'question')));
    await page.getByTestId('composer-input').fill('a.md');
    await page.getByTestId('composer-input').press('Enter');
    const approval = page.locator('.ask-card[data-kind="approval"][data-status="waiting"]');
    await approval.waitFor({ timeout: UI_TIMEOUT_MS });
    findings.push(...(await axeFindingsInBothThemes(page, 'approval card')));
    await approval.getByTestId('approve').click();
    await expect
      .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: UI_TIMEOUT_MS })
      .toBe('failed');
    findings.push(...(await axeFindingsInBothThemes(page, 'failed run')));
    expect(findings).toEqual([]);
  });
});
