import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { sequence, type Script } from '../support/fake-llm/index.js';
import { spawnCli } from '../support/cli.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import type { WatchedPage } from './support/browser.js';
import { finish } from './support/scripts.js';
import { serveApp } from './support/served-app.js';

const UI_TIMEOUT_MS = 20_000;
/** screenshots of each error and recovery state, both themes, for the closing note (not committed) */
const SCREENS_DIR = '/work/screens';

const e2e = useAppInChromium();

async function sendTask(target: WatchedPage, task: string): Promise<void> {
  const input = target.page.getByTestId('composer-input');
  await input.fill(task);
  await input.press('Enter');
}

function statusOf(target: WatchedPage) {
  return target.page.getByTestId('session-status');
}

async function waitForStatus(target: WatchedPage, status: string): Promise<void> {
  await expect.poll(() => statusOf(target).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe(status);
}

/** The state on screen in the light and the dark theme. */
async function snapBothThemes(target: WatchedPage, name: string): Promise<void> {
  mkdirSync(SCREENS_DIR, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await target.page.emulateMedia({ colorScheme });
    // the theme's colours fade in: the picture is taken once they are all there
    await target.page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation instanceof CSSTransition)
          .map((transition) => transition.finished.catch(() => undefined)),
      ),
    );
    await target.page.screenshot({ path: join(SCREENS_DIR, `wayback-${name}-${colorScheme}.png`) });
  }
  await target.page.emulateMedia({ colorScheme: null });
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** The user messages the scripted model received in a request. */
function userTexts(body: { messages?: Array<{ role: string; content: unknown }> }): string[] {
  return (body.messages ?? []).filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));
}

describe('the way back from a failed, stopped or interrupted turn, in a browser against manus serve', () => {
  it('a provider that is down fails the turn with a clear reason, shown once; Retry sends it again once it is back', async () => {
    let providerUp = false;
    const script: Script = () =>
      providerUp
        ? finish('Back online: here is the answer.')
        : { fault: 'status', status: 503, message: 'upstream down' };
    const page = await e2e.open(script, { config: { 'llm.maxAttempts': '2' } });
    await sendTask(page, 'Summarise the report');

    await waitForStatus(page, 'failed');
    const problem = page.page.locator('.timeline-scroll .problem-banner');
    await expect.poll(() => problem.getAttribute('data-code')).toBe('server_error');
    expect(await problem.locator('.problem-title').innerText()).toBe('The provider’s server failed');
    // the reason once: no second banner above the session, no copy of the error in the end card
    expect(await page.page.locator('.problem-banner').count()).toBe(1);
    // the countdown of the one retry the settings allow gave way to the error
    expect(await page.page.getByTestId('retry-notice').count()).toBe(0);
    const end = page.page.getByTestId('turn-end');
    expect(await end.getAttribute('data-status')).toBe('failed');
    // a turn that failed on the model has nothing to continue: it is sent again
    expect(await page.page.getByTestId('turn-resume').count()).toBe(0);
    expect(await end.innerText()).not.toContain('HTTP 503');
    expect(await page.page.locator('.timeline-scroll').innerText()).not.toMatch(/LLM request failed/);
    // the English detail is there for whoever wants it, folded away
    expect(await problem.locator('details.problem-details').getAttribute('open')).toBeNull();
    await snapBothThemes(page, 'provider-down');

    providerUp = true;
    const requestsBefore = e2e.app.llm.chatRequests.length;
    await page.page.getByTestId('turn-retry').click();
    await page.page.locator('.message-assistant', { hasText: 'Back online' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await waitForStatus(page, 'finished');
    expect(await page.page.getByTestId('turn-end').count()).toBe(0);
    // the same turn went to the model again
    const retried = e2e.app.llm.chatRequests[requestsBefore]!;
    expect(userTexts(retried.body).join('\n')).toContain('Summarise the report');
    expect(await page.page.locator('.message-user').count()).toBe(2);
    await snapBothThemes(page, 'provider-back');
    expect(page.pageErrors).toEqual([]);
  });

  it('a stopped run ends with Resume and Retry in the conversation, and Resume continues it', async () => {
    let hang = true;
    const page = await e2e.open(() => (hang ? { fault: 'hang' } : finish('Continued and done.')));
    await sendTask(page, 'Think for a long time');
    await waitForStatus(page, 'running');
    await page.page.getByTestId('stop').click();
    await waitForStatus(page, 'cancelled');
    const end = page.page.getByTestId('turn-end');
    expect(await end.getAttribute('data-status')).toBe('cancelled');
    expect(await end.innerText()).toContain('You stopped this run.');
    await page.page.getByTestId('turn-retry').waitFor();
    await snapBothThemes(page, 'stopped');

    hang = false;
    await page.page.getByTestId('turn-resume').click();
    await page.page
      .locator('.message-assistant', { hasText: 'Continued and done.' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await waitForStatus(page, 'finished');
    // resumed, not sent again: still the one message from the person
    expect(await page.page.locator('.message-user').count()).toBe(1);
    await page.page.locator('.notice', { hasText: 'Resuming where the session stopped.' }).waitFor();
  });

  it('a server killed mid-run: the restarted server shows the session interrupted, the page reloads with the kept token, and Resume finishes it', async () => {
    let hang = true;
    const script: Script = () => (hang ? { fault: 'hang' } : finish('Finished after the restart.'));
    const port = await freePort();
    const first = await e2e.serve(script, { port });
    const page = await e2e.openPage();
    await sendTask(page, 'Crunch the numbers');
    await waitForStatus(page, 'running');
    const sessionUrl = page.page.url();

    await first.kill();
    hang = false;
    const second = await serveApp(script, { dataDir: first.dataDir, port });
    try {
      // the same token: the page reloads straight back into the session
      expect(second.token).toBe(first.token);
      await page.page.reload();
      expect(page.page.url()).toBe(sessionUrl);
      await waitForStatus(page, 'interrupted');
      const row = page.page.locator('.session-row .status-badge');
      await expect.poll(() => row.getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('interrupted');
      const end = page.page.getByTestId('turn-end');
      expect(await end.getAttribute('data-status')).toBe('interrupted');
      expect(await end.innerText()).toContain('Manus stopped while this was running');
      expect(await page.page.getByTestId('missing-token').count()).toBe(0);
      await snapBothThemes(page, 'interrupted');

      await page.page.getByTestId('turn-resume').click();
      await page.page
        .locator('.message-assistant', { hasText: 'Finished after the restart.' })
        .waitFor({ timeout: UI_TIMEOUT_MS });
      await waitForStatus(page, 'finished');
      await expect.poll(() => row.getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('finished');
      await snapBothThemes(page, 'resumed');
    } finally {
      await second.stop();
    }
  });

  it('a run whose process died while the server lives shows interrupted in the list and when opened, and resumes there', async () => {
    let hang = true;
    const page = await e2e.open(() => (hang ? { fault: 'hang' } : finish('Picked up by the server.')));
    const app = e2e.app;
    const cli: ChildProcess = spawnCli(['run', 'Index the archive'], {
      MANUS_DATA_DIR: app.dataDir,
      MANUS_LLM_BASE_URL: app.llm.baseUrl,
      MANUS_LLM_API_KEY: 'sk-e2e-test-key',
      MANUS_LLM_MODEL: 'fake-model',
    });
    const cliExited = new Promise((resolve) => cli.once('exit', resolve));
    const row = page.page.locator('.session-row').filter({ hasText: 'Index the archive' });
    const rowStatus = () => row.locator('.status-badge').getAttribute('data-status');
    try {
      await expect.poll(() => app.llm.chatRequests.length, { timeout: UI_TIMEOUT_MS }).toBeGreaterThan(0);
      // while the other process lives its run is shown running, in the list and open
      await page.page.reload();
      await expect.poll(rowStatus, { timeout: UI_TIMEOUT_MS }).toBe('running');
      await row.locator('[data-session]').click();
      await waitForStatus(page, 'running');
    } finally {
      cli.kill('SIGKILL');
      await cliExited;
    }
    hang = false;

    // the page that had it open learns it died when it is opened again, without a reload
    await page.page.getByTestId('new-session').click();
    await row.locator('[data-session]').click();
    await waitForStatus(page, 'interrupted');
    await expect.poll(rowStatus, { timeout: UI_TIMEOUT_MS }).toBe('interrupted');
    // and a page opened afresh lists it interrupted
    await page.page.reload();
    await expect.poll(rowStatus, { timeout: UI_TIMEOUT_MS }).toBe('interrupted');
    await waitForStatus(page, 'interrupted');
    expect(await page.page.getByTestId('turn-end').getAttribute('data-status')).toBe('interrupted');
    await page.page.getByTestId('turn-resume').click();
    await page.page
      .locator('.message-assistant', { hasText: 'Picked up by the server.' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await waitForStatus(page, 'finished');
  });

  it('a refused API key says so and opens that provider’s settings; after the fix Retry succeeds', async () => {
    let keyFixed = false;
    const page = await e2e.open(
      () =>
        keyFixed ? finish('Key accepted.') : { fault: 'status', status: 401, message: 'Incorrect API key provided' },
      {
        // a saved provider, not the environment's: its settings are what the button opens
        env: { MANUS_LLM_BASE_URL: '', MANUS_LLM_API_KEY: '', MANUS_LLM_MODEL: '' },
        config: (baseUrl) => ({ 'llm.baseUrl': baseUrl, 'llm.apiKey': 'sk-wrong-key-0000', 'llm.model': 'fake-model' }),
      },
    );
    await sendTask(page, 'Write a haiku');
    await waitForStatus(page, 'failed');
    const problem = page.page.locator('.timeline-scroll .problem-banner');
    expect(await problem.getAttribute('data-code')).toBe('unauthorized');
    expect(await problem.locator('.problem-title').innerText()).toBe('The provider rejected the API key');
    expect(await page.page.locator('.problem-banner').count()).toBe(1);
    const open = page.page.getByTestId('open-provider-settings');
    expect(await open.innerText()).toBe('Open the settings of default');
    await snapBothThemes(page, 'wrong-key');

    await open.click();
    const form = page.page.getByTestId('provider-form');
    await form.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await page.page.getByTestId('provider-name').inputValue()).toBe('default');
    await snapBothThemes(page, 'wrong-key-settings');
    await page.page.getByTestId('provider-key').fill('sk-right-key-1111');
    await page.page.getByTestId('save-provider').click();
    await page.page.getByTestId('saved').waitFor({ timeout: UI_TIMEOUT_MS });
    keyFixed = true;
    await page.page.getByTestId('close-settings').click();

    await page.page.getByTestId('turn-retry').click();
    await page.page.locator('.message-assistant', { hasText: 'Key accepted.' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await waitForStatus(page, 'finished');
    expect(e2e.app.llm.chatRequests.at(-1)!.headers.authorization).toBe('Bearer sk-right-key-1111');
  });

  it('a rate limit says when the request is retried, counting down live, then the reply arrives', async () => {
    const page = await e2e.open(
      sequence({ fault: 'rate_limit', retryAfterSeconds: 4 }, finish('Made it after the wait.')),
    );
    await sendTask(page, 'Fetch the quotes');
    const notice = page.page.getByTestId('retry-notice');
    await notice.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await notice.innerText()).toMatch(
      /The provider is limiting requests\. Retrying in [1-4] seconds? \(attempt 2 of 6\)/,
    );
    const first = Number(await notice.getAttribute('data-seconds'));
    await snapBothThemes(page, 'rate-limited');
    // the countdown moves on its own while the run waits
    await expect
      .poll(async () => Number(await notice.getAttribute('data-seconds')), { timeout: UI_TIMEOUT_MS })
      .toBeLessThan(first);
    await page.page
      .locator('.message-assistant', { hasText: 'Made it after the wait.' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    await waitForStatus(page, 'finished');
    expect(await notice.innerText()).toContain('Tried again (attempt 2 of 6)');
  });

  it('a rate limit longer than Manus waits on its own says how long the provider asked for, counting down to Retry', async () => {
    const page = await e2e.open(sequence({ fault: 'rate_limit', retryAfterSeconds: 150 }, finish('unused')));
    await sendTask(page, 'Fetch everything');
    await waitForStatus(page, 'failed');
    const problem = page.page.locator('.timeline-scroll .problem-banner');
    expect(await problem.getAttribute('data-code')).toBe('rate_limited');
    expect(await problem.innerText()).toContain('The provider asks to wait 150 s');
    const wait = page.page.getByTestId('retry-wait');
    const first = Number(await wait.getAttribute('data-seconds'));
    expect(first).toBeGreaterThan(100);
    expect(await wait.innerText()).toBe(`You can retry in ${first} seconds.`);
    await expect
      .poll(async () => Number(await wait.getAttribute('data-seconds')), { timeout: UI_TIMEOUT_MS })
      .toBeLessThan(first);
    await snapBothThemes(page, 'rate-limited-long');
  });

  it('no network: a refused connection says the provider cannot be reached, in the UI’s language', async () => {
    const closedPort = await freePort();
    const page = await e2e.open(sequence(finish('never asked')), {
      env: { MANUS_LLM_BASE_URL: `http://127.0.0.1:${closedPort}/v1` },
      config: { 'llm.maxAttempts': '1' },
    });
    await sendTask(page, 'Look this up');
    await waitForStatus(page, 'failed');
    const problem = page.page.locator('.timeline-scroll .problem-banner');
    expect(await problem.getAttribute('data-code')).toBe('network');
    expect(await problem.locator('.problem-title').innerText()).toBe('The model provider refused the connection');
    await snapBothThemes(page, 'no-network');

    // the same stored error, in 中文: from its code, not the core's English
    await page.page.evaluate(() => localStorage.setItem('manus.language', 'zh'));
    await page.page.reload();
    await waitForStatus(page, 'failed');
    expect(await problem.locator('.problem-title').innerText()).toBe('模型服务商拒绝了连接');
    expect(await page.page.getByTestId('turn-retry').innerText()).toContain('重试');
    expect(await page.page.getByTestId('turn-end').innerText()).not.toMatch(/[A-Za-z]{4,}/);
    await snapBothThemes(page, 'no-network-zh');
  });

  it('a server restarted with a new token says so on reload instead of looking empty', async () => {
    const port = await freePort();
    const first = await e2e.serve(sequence(finish('Stored answer.')), { port });
    const page = await e2e.openPage();
    await sendTask(page, 'Remember this');
    await waitForStatus(page, 'finished');

    await first.kill();
    const second = await serveApp(sequence(finish('unused')), { dataDir: first.dataDir, port, args: ['--new-token'] });
    try {
      expect(second.token).not.toBe(first.token);
      await page.page.reload();
      const view = page.page.getByTestId('missing-token');
      await view.waitFor({ timeout: UI_TIMEOUT_MS });
      expect(await view.getAttribute('data-reason')).toBe('refused');
      expect(await view.innerText()).toContain('The Manus server restarted');
      expect(await view.innerText()).toContain('nothing was lost');
      expect(await view.innerText()).toContain(`serve-token`);
      expect(await view.innerText()).toContain(`${second.origin}/?token=`);
      await snapBothThemes(page, 'token-refused');

      // the printed URL takes the page back to its sessions
      await page.page.goto(second.url);
      await page.page.locator('.session-row').filter({ hasText: 'Remember this' }).waitFor({ timeout: UI_TIMEOUT_MS });
    } finally {
      await second.stop();
    }
  });
});
