import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/store.js';
import { createPlan, finish as finishStep, planningScript } from '../flow/flow-script.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import type { WatchedPage } from './support/browser.js';
import { call, finish, lastToolResult } from './support/scripts.js';

const UI_TIMEOUT_MS = 30_000;

const e2e = useAppInChromium();

function headerStatus(watched: WatchedPage) {
  return watched.page.getByTestId('session-status');
}

/** The mode, the checked agents and the parallel steps the composer shows now. */
async function shownChoices(watched: WatchedPage) {
  const page = watched.page;
  const mode = await page.locator('.mode-switch [aria-checked="true"]').getAttribute('data-mode');
  if (!(await page.getByTestId('flow-choices').isVisible())) return { mode };
  const checked: string[] = [];
  for (const box of await page.locator('[data-agent]').all()) {
    if (await box.isChecked()) checked.push((await box.getAttribute('data-agent'))!);
  }
  return { mode, agents: checked, parallel: await page.getByTestId('flow-parallel').inputValue() };
}

describe('the composer chooses what the CLI flags choose', () => {
  it('sends a flow with the chosen agents and parallel steps, and a reload or reopening shows them again', async () => {
    await e2e.serve(
      planningScript({
        plan: () => createPlan('Two studies', ['Study the sales', 'Study the costs']),
        step: (step) => finishStep(`Result of step ${step.index}`),
        summary: () => ({ text: 'Summary: both studied.' }),
      }),
    );
    const watched = await e2e.openPage();
    const page = watched.page;
    await page.getByTestId('composer-input').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.getByTestId('flow-choices').count()).toBe(0);

    // unchosen, Plan & act may route a step to any agent (as the core does): every box is checked
    await page.locator('[data-mode="plan_act"]').click();
    await expect
      .poll(() => shownChoices(watched))
      .toEqual({ mode: 'plan_act', agents: ['manus', 'data_analysis', 'swe', 'browser'], parallel: '1' });

    // keyboard only: to the Planning flow radio, then Space on the agents and typing the number
    await page.locator('[data-mode="planning"]').focus();
    await page.keyboard.press('Space');
    const choices = page.getByTestId('flow-choices');
    await choices.waitFor();
    expect(await choices.innerText()).toContain('[BROWSER]');
    expect(await shownChoices(watched)).toEqual({ mode: 'planning', agents: ['manus'], parallel: '1' });
    // the last agent cannot be unchecked: a flow needs one
    expect(await page.getByLabel('General (manus)').isDisabled()).toBe(true);
    await page.getByLabel('Data analysis').focus();
    await page.keyboard.press('Space');
    await page.getByLabel('Browser').focus();
    await page.keyboard.press('Space');
    await page.getByLabel('Browser').press('Space');
    // a count past the contract's bound is not taken: leaving the field shows the one that will be sent
    const parallel = page.getByLabel('Parallel steps');
    await parallel.fill('40');
    await parallel.blur();
    expect(await parallel.inputValue()).toBe('1');
    await parallel.fill('2');
    expect(await shownChoices(watched)).toEqual({
      mode: 'planning',
      agents: ['manus', 'data_analysis'],
      parallel: '2',
    });
    await watched.screenshot('flow-choices');

    const input = page.getByTestId('composer-input');
    await input.fill('Study sales and costs');
    await input.press('Enter');
    await expect
      .poll(() => headerStatus(watched).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS })
      .toBe('finished');

    // the flow got them: the planner was told of both agents, and the plan ran two steps at a time
    const planPrompt = JSON.stringify(e2e.app.llm.chatRequests[0].body.messages);
    expect(planPrompt).toContain('- data_analysis:');
    expect(planPrompt).not.toContain('- browser:');
    const sessionId = /#\/s\/([\w-]+)/.exec(page.url())![1];
    const store = openStore(e2e.app.dataDir);
    try {
      expect(store.plans.list(sessionId)[0]).toMatchObject({ agents: ['manus', 'data_analysis'], parallel: 2 });
    } finally {
      store.close();
    }

    await page.reload();
    await expect
      .poll(() => headerStatus(watched).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS })
      .toBe('finished');
    await expect
      .poll(() => shownChoices(watched), { timeout: UI_TIMEOUT_MS })
      .toEqual({ mode: 'planning', agents: ['manus', 'data_analysis'], parallel: '2' });
    await watched.screenshot('flow-choices-after-reload');

    // a new session starts from the defaults; opening the flow session again brings its choices back
    await page.getByTestId('new-session').click();
    await expect.poll(() => shownChoices(watched)).toEqual({ mode: 'agent' });
    await page.locator(`[data-session="${sessionId}"]`).click();
    await expect
      .poll(() => shownChoices(watched), { timeout: UI_TIMEOUT_MS })
      .toEqual({ mode: 'planning', agents: ['manus', 'data_analysis'], parallel: '2' });
    expect(watched.pageErrors).toEqual([]);
  });

  it('badges a session waiting for the person in the list and the header, and it runs on once answered', async () => {
    const watched = await e2e.open((request) =>
      request.index === 0
        ? { toolCalls: [call('ask_human', { inquire: 'Which quarter?' })] }
        : finish(`Using ${lastToolResult(request)}.`),
    );
    const page = watched.page;
    const input = page.getByTestId('composer-input');
    await input.fill('Summarise the sales');
    await input.press('Enter');

    await expect
      .poll(() => headerStatus(watched).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS })
      .toBe('waiting');
    expect(await headerStatus(watched).innerText()).toBe('Waiting');
    const badge = page.locator('.session-link .status-badge');
    await expect.poll(() => badge.getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('waiting');
    expect(await badge.innerText()).toBe('Waiting');
    // still a live run: it can be stopped
    await page.getByTestId('stop').waitFor();
    await watched.screenshot('waiting-badge');

    // after a reload the stored status says the same
    await page.reload();
    await expect
      .poll(() => page.locator('.session-link .status-badge').getAttribute('data-status'), { timeout: UI_TIMEOUT_MS })
      .toBe('waiting');

    // answered from the message box (issue 14)
    await page.getByTestId('composer-answering').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByTestId('composer-input').fill('Q3');
    await page.getByTestId('composer-input').press('Enter');
    await page.locator('.message-assistant', { hasText: 'Using Q3.' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await expect
      .poll(() => headerStatus(watched).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS })
      .toBe('finished');
    await expect.poll(() => page.locator('.session-link .status-badge').getAttribute('data-status')).toBe('finished');
    expect(watched.pageErrors).toEqual([]);
  });
});
