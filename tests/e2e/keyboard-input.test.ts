import { describe, expect, it } from 'vitest';
import { useAppInChromium } from './support/app-in-chromium.js';
import type { WatchedPage } from './support/browser.js';
import { finish } from './support/scripts.js';

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

/** A reply the test lets go of when it is ready: the run stays running until then. */
function heldReply() {
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { release, released };
}

describe('keyboard and input, in a browser against manus serve', () => {
  it('closes the topmost menu or dialog with Esc during a run, and the run goes on', async () => {
    const held = heldReply();
    const page = await e2e.open(async (request) => {
      if (request.index === 0) await held.released;
      return finish('All done after the dialog.');
    });
    await sendTask(page, 'Work while I look around');
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('running');
    const stop = page.page.getByTestId('stop');
    expect(await stop.getAttribute('title')).toContain('Ctrl/⌘ + .');
    expect(await stop.getAttribute('title')).not.toContain('Esc');

    // a menu, then a dialog over the page: each Esc closes the one on top and nothing else
    await page.page.getByTestId('session-menu').first().click();
    await page.page.locator('.row-menu').waitFor();
    await page.page.keyboard.press('Escape');
    await page.page.locator('.row-menu').waitFor({ state: 'detached' });
    await page.page.getByTestId('session-menu').first().click();
    await page.page.locator('.row-menu [data-action="delete"]').click();
    const dialog = page.page.getByTestId('confirm-dialog');
    await dialog.waitFor();
    await page.screenshot('dialog-during-run');
    await page.page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.page.keyboard.press('Escape');
    expect(await status(page).getAttribute('data-status')).toBe('running');
    expect(await page.page.locator('.session-link').count()).toBe(1);

    held.release();
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('finished');
    await page.page.locator('.message-assistant', { hasText: 'All done after the dialog.' }).waitFor();
    expect(e2e.app.llm.chatRequests.every((request) => !request.closedByClient)).toBe(true);
  });
});
