import { describe, expect, it } from 'vitest';
import { sequence } from '../support/fake-llm/index.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import type { WatchedPage } from './support/browser.js';
import { call, finish, lastToolResult } from './support/scripts.js';

const UI_TIMEOUT_MS = 20_000;

const e2e = useAppInChromium();

async function sendTask(target: WatchedPage, task: string): Promise<void> {
  const input = target.page.getByTestId('composer-input');
  await input.fill(task);
  await input.press('Enter');
}

function status(target: WatchedPage) {
  return target.page.getByTestId('session-status');
}

describe('the live session view in a browser, against manus serve', () => {
  it('sends a typed task with Enter and streams the reply in as Markdown', async () => {
    const reply =
      'Here is **the answer**, streamed word by word, one chunk at a time:\n\n```python\nprint("hello")\n```';
    const page = await e2e.open(sequence(finish(reply, { chunkDelayMs: 120 })));
    await page.screenshot('welcome');

    const input = page.page.getByTestId('composer-input');
    await input.fill('First line');
    await input.press('Shift+Enter');
    await input.pressSequentially('second line');
    expect(await input.inputValue()).toBe('First line\nsecond line');
    await input.press('Enter');

    const assistant = page.page.locator('.message-assistant').last();
    // seen while still streaming: part of the reply is on screen, the caret after it
    await page.page.locator('.message-assistant.streaming .stream-caret').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await status(page).getAttribute('data-status')).toBe('running');
    await page.screenshot('streaming');
    await assistant.locator('strong', { hasText: 'the answer' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('finished');
    await expect.poll(() => assistant.locator('code.hljs').count()).toBe(1);
    expect(await page.page.locator('.message-user .plain-text').innerText()).toBe('First line\nsecond line');
    expect(await page.page.locator('.session-link').count()).toBe(1);
    await page.screenshot('streamed-reply');
    expect(page.pageErrors).toEqual([]);
  });

  it('shows ask_human inline and the run goes on with the typed answer', async () => {
    const page = await e2e.open((request) =>
      request.index === 0
        ? { text: 'I need one detail.', toolCalls: [call('ask_human', { inquire: 'Which **city** should I use?' })] }
        : finish(`You said: ${lastToolResult(request)}`),
    );
    await sendTask(page, 'Plan a trip');
    await page.page.getByTestId('composer-answering').waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.page.locator('.ask-card strong').innerText()).toBe('city');
    await page.screenshot('ask-human');
    const askInput = page.page.getByTestId('composer-input');
    await askInput.fill('Lisbon');
    await askInput.press('Enter');
    await page.page.locator('.message-assistant', { hasText: 'You said: Lisbon' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('finished');
    expect(await page.page.locator('.ask-card .ask-answer').innerText()).toContain('Lisbon');
  });

  it('stops a run with Ctrl+.', async () => {
    const page = await e2e.open(sequence({ fault: 'hang' }));
    await sendTask(page, 'Think forever');
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('running');
    await page.page.getByTestId('stop').waitFor();
    await page.screenshot('running-before-stop');
    await page.page.keyboard.press('Control+Period');
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('cancelled');
    await page.page.locator('.done-card.done-cancelled').waitFor();
    await page.page.getByTestId('send').waitFor();
    await page.screenshot('stopped');
  });

  it('re-attaches to a running session after a reload and replays it without duplicates', async () => {
    const words = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
    const page = await e2e.open(sequence(finish(words, { chunkDelayMs: 60 })));
    await sendTask(page, 'Write forty words');
    await page.page.locator('.message-assistant', { hasText: 'word3' }).waitFor({ timeout: UI_TIMEOUT_MS });
    const urlBefore = page.page.url();
    expect(urlBefore).toMatch(/#\/s\//);
    expect(urlBefore).not.toContain('token=');

    await page.page.reload();
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('running');
    await page.screenshot('reattached-mid-run');
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('finished');
    const text = await page.page.locator('.message-assistant .markdown').first().innerText();
    expect(text.trim()).toBe(words);
    expect(await page.page.locator('.message-assistant').count()).toBe(1);
    expect(await page.page.locator('.message-user').count()).toBe(1);
  });

  it('keeps hostile markup from the model, from tools and from answers inert', async () => {
    const hostile = [
      '<img src=x onerror="alert(\'xss-img\')">',
      "[click me](javascript:alert('xss-link'))",
      "<script>alert('xss-script')</script>",
      '<a href="javascript:alert(1)">raw link</a>',
      "![pixel](javascript:alert('xss-image-link'))",
    ].join('\n\n');
    const hostileToolName = "<img src=x onerror=alert('xss-tool')>";
    const page = await e2e.open((request) => {
      if (request.index === 0) return { text: hostile, toolCalls: [call(hostileToolName, { html: hostile })] };
      if (request.index === 1) return { toolCalls: [call('ask_human', { inquire: hostile })] };
      return finish(`Done.\n\n${hostile}\n\nThe tool said: ${lastToolResult(request)}`);
    });
    // the page's own inline scripts (its theme and language, allowed by their hashes): none may join them
    const inlineScripts = () => page.page.evaluate(() => [...document.scripts].filter((script) => !script.src).length);
    const ownInlineScripts = await inlineScripts();
    await sendTask(page, `Echo this: ${hostile}`);
    await page.page.getByTestId('composer-answering').waitFor({ timeout: UI_TIMEOUT_MS });
    const askInput = page.page.getByTestId('composer-input');
    await askInput.fill('<img src=x onerror="alert(\'xss-answer\')"> [x](javascript:alert(2))');
    await askInput.press('Enter');
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('finished');
    const toolCard = page.page.locator('.tool-card', { hasText: 'xss-tool' }).first();
    await toolCard.locator('.tool-card-head').click();
    await toolCard.locator('.tool-error-text').waitFor();
    await page.page.getByText('click me').first().click();
    await page.screenshot('hostile-markup-inert');

    const injected = await page.page.evaluate(() => ({
      images: document.querySelectorAll('img[src="x"], img[onerror]').length,
      javascriptLinks: document.querySelectorAll('a[href^="javascript" i]').length,
      handlers: [...document.querySelectorAll('*')].filter((element) =>
        [...element.attributes].some((attribute) => attribute.name.startsWith('on')),
      ).length,
    }));
    expect(injected).toEqual({ images: 0, javascriptLinks: 0, handlers: 0 });
    expect(await inlineScripts()).toBe(ownInlineScripts);
    expect(page.dialogs).toEqual([]);
    expect(page.pageErrors).toEqual([]);
    // shown as text, so the person sees what the tool got
    expect(await toolCard.locator('.tool-name').innerText()).toBe(hostileToolName);
    expect(await page.page.locator('.ask-card .ask-answer').innerText()).toContain('onerror="alert(\'xss-answer\')"');
    await page.page.locator('.message-assistant', { hasText: 'The tool said' }).waitFor();
  });

  it('shows a refused API key as a banner with the fix', async () => {
    const page = await e2e.open(sequence({ fault: 'status', status: 401, message: 'Incorrect API key provided' }));
    await sendTask(page, 'Anything');
    const banner = page.page.locator('.problem-banner[data-problem="no_key"]');
    await banner.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await banner.innerText()).toMatch(/settings|MANUS_LLM_API_KEY/i);
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('failed');
    await page.screenshot('error-banner');
  });

  it('asks for the token when the page is opened without it, and refuses a wrong one', async () => {
    const app = await e2e.serve(sequence(finish('unused')));
    const watched = await e2e.openPage(app.origin + '/');
    await watched.page.getByTestId('missing-token').waitFor({ timeout: UI_TIMEOUT_MS });
    await watched.screenshot('missing-token');
    const refused = await fetch(`${app.origin}/api/listSessions`, { method: 'POST', body: '{}' });
    expect(refused.status).toBe(401);
  });
});
