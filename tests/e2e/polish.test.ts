import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { sequence, startFakeLlm, type FakeLlm, type Script } from '../support/fake-llm/index.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { classify, createPlan, planningScript } from '../flow/flow-script.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { axeFindingsInBothThemes } from './support/axe.js';
import { CHROMIUM_PATH } from './support/browser.js';
import { layoutProblems } from './support/layout-checks.js';
import { call, finish } from './support/scripts.js';
import { applyUiPrefs } from './support/ui-prefs.js';

const UI_TIMEOUT_MS = 30_000;
const RUN_TIMEOUT_MS = 90_000;

const e2e = useAppInChromium();
let site: FixtureServer | undefined;
let secondLlm: FakeLlm | undefined;

afterEach(async () => {
  await site?.close();
  await secondLlm?.close();
  site = undefined;
  secondLlm = undefined;
});

async function sendTask(page: Page, task: string): Promise<void> {
  await page.getByTestId('composer-input').fill(task);
  await page.getByTestId('composer-input').press('Enter');
}

async function waitStatus(page: Page, status: string): Promise<void> {
  await expect
    .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
    .toBe(status);
}

describe('polish', () => {
  it('renames a session in its header, the sidebar and a search result at once', async () => {
    const { page } = await e2e.open(sequence(finish('Octopuses have three hearts.')));
    await sendTask(page, 'Tell me about octopuses');
    await waitStatus(page, 'finished');
    const header = page.locator('.session-header .session-name');
    expect(await header.innerText()).toBe('Tell me about octopuses');

    // renamed from a search result, while the session is open
    await page.getByTestId('session-search').fill('hearts');
    const hit = page.locator('[data-session-row]', { has: page.locator('mark') });
    await hit.waitFor();
    await hit.hover();
    await hit.getByTestId('session-menu').click();
    await hit.locator('[data-action="rename"]').click();
    await page.getByTestId('rename-input').fill('Cephalopod facts');
    await page.getByTestId('rename-input').press('Enter');
    await expect.poll(() => header.innerText()).toBe('Cephalopod facts');
    await expect.poll(() => hit.locator('.session-title').innerText()).toBe('Cephalopod facts');
    await page.getByTestId('session-search').fill('');
    expect(await page.locator('[data-session-row] .session-title').allInnerTexts()).toEqual(['Cephalopod facts']);
    // and it was saved: a reload shows it
    await page.reload();
    await expect.poll(() => header.innerText(), { timeout: UI_TIMEOUT_MS }).toBe('Cephalopod facts');
  });

  it('names a planning session from its task, not from the planner’s one-word title', async () => {
    const { page } = await e2e.open(
      planningScript({
        plan: () => createPlan('Plan', ['Gather facts']),
        step: (step) => finish(`Result of step ${step.index}`),
        summary: () => ({ text: 'Summary: done.' }),
      }),
    );
    await page.locator('[data-mode="planning"]').click();
    await sendTask(page, 'Compare three hiking trails near Lisbon');
    await waitStatus(page, 'finished');
    expect(await page.locator('.session-header .session-name').innerText()).toBe(
      'Compare three hiking trails near Lisbon',
    );
    expect(await page.locator('[data-session-row] .session-title').allInnerTexts()).toEqual([
      'Compare three hiking trails near Lisbon',
    ]);
  });

  it('shows a tool call cut short by Stop as Stopped, not as a failure', async () => {
    const { page } = await e2e.open(sequence({ toolCalls: [call('ask_human', { inquire: 'Which colour?' })] }));
    await sendTask(page, 'Paint the fence');
    const card = page.locator('.tool-card[data-tool="ask_human"]');
    await card.locator('.tool-status.status-calling').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByTestId('stop').click();
    await waitStatus(page, 'cancelled');
    await expect.poll(() => card.locator('.tool-status').innerText()).toBe('Stopped');
    expect(await card.getAttribute('class')).not.toContain('tool-error');
    // the same after a reload, from the stored events
    await page.reload();
    await expect.poll(() => card.locator('.tool-status').innerText(), { timeout: UI_TIMEOUT_MS }).toBe('Stopped');
  });

  it('counts with the plural forms of each language: 1 token, 1 model, 1 of 1 step', async () => {
    secondLlm = await startFakeLlm(undefined, { models: ['solo-model'] });
    const planned = planningScript({ plan: () => createPlan('One step', ['Only step']) });
    // an agent turn that costs one token, then a planning turn of one step
    const { page } = await e2e.open((request) =>
      classify(request.body).kind === 'other'
        ? finish('Done.', { usage: { prompt_tokens: 1, completion_tokens: 0 } })
        : planned(request),
    );
    await sendTask(page, 'One small thing');
    await waitStatus(page, 'finished');
    await expect.poll(() => page.locator('.session-header .usage').innerText()).toBe('1 token');
    const oneToken = page.url();
    await page.getByTestId('new-session').click();
    await page.locator('[data-mode="planning"]').click();
    await sendTask(page, 'One planned thing');
    await waitStatus(page, 'finished');
    expect(await page.locator('.plan-progress-text').innerText()).toBe('1 of 1 step');
    const oneStep = page.url();

    await page.getByTestId('open-settings').click();
    // with no provider saved the form is already open; else it opens from its button
    await page.getByTestId('provider-form').or(page.getByTestId('add-provider')).waitFor();
    if (await page.getByTestId('add-provider').isVisible()) await page.getByTestId('add-provider').click();
    await page.getByTestId('provider-name').fill('solo');
    await page.getByTestId('provider-kind').selectOption('compatible');
    await page.getByTestId('provider-url').fill(secondLlm.baseUrl);
    await page.getByTestId('provider-key').fill('sk-solo-0000');
    await page.getByTestId('test-provider').click();
    await expect
      .poll(() => page.getByTestId('test-result').innerText(), { timeout: UI_TIMEOUT_MS })
      .toMatch(/· 1 model available$/);

    await page.goto(oneToken);
    await applyUiPrefs(page, { theme: 'light', language: 'zh' });
    await expect.poll(() => page.locator('.session-header .usage').innerText()).toBe('1 个 token');
    await page.goto(oneStep);
    await page.getByTestId('plan-panel').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.locator('.plan-progress-text').innerText()).toBe('1 / 1 步');
  });

  it('finds questions and answers in search, and shows snippets as text without Markdown', async () => {
    const script: Script = (request) =>
      request.index === 0
        ? { toolCalls: [call('ask_human', { inquire: 'Which **harbour** should I describe?' })] }
        : finish('The **lighthouse** on [the map](https://example.com/map) is *white*.');
    const { page } = await e2e.open(script);
    await sendTask(page, 'Describe a port town');
    // the question is answered from the message box (issue 14)
    await page.getByTestId('composer-answering').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.getByTestId('composer-input').fill('Valletta, in Malta');
    await page.getByTestId('composer-input').press('Enter');
    await waitStatus(page, 'finished');

    const search = page.getByTestId('session-search');
    const snippet = page.locator('[data-session-row] .session-snippet');
    for (const [query, expected] of [
      ['valletta', '«Valletta», in Malta'],
      ['harbour', 'Which «harbour» should I describe?'],
      ['lighthouse', 'The «lighthouse» on the map is white.'],
    ]) {
      await search.fill(query);
      await expect
        .poll(() => snippet.evaluate((element) => element.innerHTML.replace(/<mark>(.*?)<\/mark>/g, '«$1»')))
        .toBe(expected);
    }
    expect(await snippet.innerText()).not.toMatch(/[*[\]()]|https/);
  });

  it('enlarges a browser screenshot, and closes it with Escape or its button', async () => {
    site = await startFixtureServer();
    site.route('/page', htmlPage('<h1 style="font-size:64px">A page to look at closely</h1>', 'Closely'));
    const { page } = await e2e.open(
      sequence({ toolCalls: [call('browser_use', { action: 'go_to_url', url: site.url('/page') })] }, finish('Seen.')),
      { config: { 'browser.executablePath': CHROMIUM_PATH, 'browser.allowPrivateNetwork': 'true' } },
      { bypassCSP: true },
    );
    await sendTask(page, 'Look at the page');
    await waitStatus(page, 'finished');
    const panel = page.getByTestId('browser-panel');
    await panel.waitFor();
    const thumbnail = await panel.locator('.browser-shot').boundingBox();

    await panel.getByTestId('enlarge-image').click();
    const lightbox = page.getByTestId('lightbox');
    await lightbox.waitFor();
    const enlarged = await lightbox.locator('img').boundingBox();
    expect(enlarged!.width).toBeGreaterThan(thumbnail!.width * 1.5);
    expect(await lightbox.getAttribute('role')).toBe('dialog');
    await e2e.watched.screenshot('browser-screenshot-enlarged');
    expect(await axeFindingsInBothThemes(page, 'lightbox')).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => lightbox.count()).toBe(0);
    // the focus went back to the picture, and the run's view is as it was
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('enlarge-image');
    expect(await page.getByTestId('session-status').getAttribute('data-status')).toBe('finished');

    await page.keyboard.press('Enter');
    await lightbox.waitFor();
    await page.getByTestId('lightbox-close').click();
    await expect.poll(() => lightbox.count()).toBe(0);
  });

  it('keeps the review marks of a long session inside the pane at 1024×640', async () => {
    const writes = Array.from({ length: 60 }, (_, index) =>
      call('str_replace_editor', { command: 'create', path: `note-${index}.md`, file_text: `note ${index}` }),
    );
    const { page } = await e2e.open(sequence({ toolCalls: writes }, finish('Sixty notes written.')));
    await page.setViewportSize({ width: 1024, height: 640 });
    await sendTask(page, 'Write sixty notes');
    await waitStatus(page, 'finished');
    await page.getByTestId('toggle-files').click();
    await page.getByTestId('toggle-review').click();
    const marks = page.locator('.review-marks [data-mark]');
    await expect.poll(() => marks.count(), { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(60);
    await page.getByTestId('review-prev').click();

    const overflow = await page.evaluate(() => {
      const review = document.querySelector('[data-testid="review"]')!.getBoundingClientRect();
      const list = document.querySelector('.review-marks')!;
      const bar = document.querySelector('.review-bar')!;
      const listRect = list.getBoundingClientRect();
      const outside = [...list.querySelectorAll('[data-mark]')].filter((mark) => {
        const rect = mark.getBoundingClientRect();
        return rect.left < review.left || rect.right > review.right;
      });
      return {
        listScrollsSideways: list.scrollWidth > list.clientWidth,
        barScrollsSideways: bar.scrollWidth > bar.clientWidth,
        marksOutside: outside.length,
        listHeight: listRect.height,
      };
    });
    expect(overflow).toMatchObject({ listScrollsSideways: false, barScrollsSideways: false, marksOutside: 0 });
    // three rows at most: the timeline keeps the room
    expect(overflow.listHeight).toBeLessThan(110);
    // the current mark (one before the end) is in sight in its scrolled list
    expect(await page.locator('.review-mark.current').isVisible()).toBe(true);
    expect(await layoutProblems(page)).toEqual([]);
    await e2e.watched.screenshot('review-marks-1024');
    // the review shows its own panels; asking for the files goes back to the live session with them
    expect(await page.locator('.side-panel').count()).toBe(0);
    expect(await page.getByTestId('toggle-review').getAttribute('aria-pressed')).toBe('true');
    expect(await page.getByTestId('toggle-files').getAttribute('aria-pressed')).toBe('false');
    await page.getByTestId('toggle-files').click();
    await page.locator('.side-panel [data-file]').first().waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.getByTestId('review').count()).toBe(0);
    expect(await page.getByTestId('toggle-files').getAttribute('aria-pressed')).toBe('true');
  });
});
