import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright';
import type { Script } from '../support/fake-llm/index.js';
import { openSecretBox } from '../../src/main/store/secret-store.js';
import { credentialStoreIn } from '../../src/main/mcp/oauth/credential-store.js';
import { startTestAuthServer, type TestAuthServer } from '../mcp/support/oauth-server.js';
import { openStore } from '../../src/main/store/store.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { call, finish, lastToolResult } from './support/scripts.js';

const UI_TIMEOUT_MS = 20_000;
const RUN_TIMEOUT_MS = 60_000;
const FOLLOW_BROWSER = join(import.meta.dirname, '..', 'mcp', 'fixtures', 'follow-browser.mjs');

const e2e = useAppInChromium();
let auth: TestAuthServer | undefined;

afterEach(async () => {
  await auth?.close();
  auth = undefined;
});

/** The model asks the protected server who is calling, then reports what it said (once per task). */
const whoamiScript: Script = (request) => {
  const messages: { role: string; content?: unknown }[] = request.body.messages;
  const answers = messages.filter((message) => message.role === 'tool' && String(message.content).includes('client '));
  const reports = messages.filter(
    (message) => message.role === 'assistant' && String(message.content).startsWith('The server said'),
  );
  return answers.length > reports.length
    ? finish(`The server said: ${lastToolResult(request)}`)
    : { toolCalls: [call('mcp_remote_whoami', {})] };
};

async function sendTask(page: Page, task: string): Promise<void> {
  await page.getByTestId('composer-input').fill(task);
  await page.getByTestId('composer-input').press('Enter');
}

async function openMcpSettings(page: Page): Promise<void> {
  await page.keyboard.press('Control+,');
  await page.getByTestId('settings').waitFor();
  await page.locator('[data-tab="mcp"]').click();
}

describe('a remote MCP server behind OAuth, in the app (browser, manus serve)', () => {
  it('is added in Settings, signed in through the browser, used by the agent, refreshed, and signed out', async () => {
    auth = await startTestAuthServer();
    // the scripted browser plays the person approving the sign-in: $BROWSER is what the app opens
    const app = await e2e.serve(whoamiScript, { env: { BROWSER: FOLLOW_BROWSER } });
    const watched = await e2e.openPage();
    const page = watched.page;
    await page.getByTestId('composer-input').waitFor({ timeout: UI_TIMEOUT_MS });

    await openMcpSettings(page);
    await page.getByTestId('add-mcp').click();
    await page.getByTestId('mcp-name').fill('remote');
    await page.getByTestId('mcp-type').selectOption('http');
    await page.getByTestId('mcp-url').fill(auth.mcpUrl);
    await page.getByTestId('save-mcp').click();
    const card = page.locator('[data-server="remote"]');
    await expect
      .poll(() => card.getByTestId('mcp-sign-in-state').innerText(), { timeout: UI_TIMEOUT_MS })
      .toBe('Sign-in needed');
    await watched.screenshot('mcp-sign-in-needed');

    await card.getByTestId('mcp-sign-in-button').click();
    await expect
      .poll(() => card.getByTestId('mcp-sign-in').getAttribute('data-signed-in'), { timeout: UI_TIMEOUT_MS })
      .toBe('true');
    await expect.poll(() => card.getAttribute('data-state'), { timeout: UI_TIMEOUT_MS }).toBe('connected');
    expect(await card.getByTestId('mcp-sign-in-state').innerText()).toMatch(
      /^Signed in as ada@example\.com · token valid until /,
    );
    await watched.screenshot('mcp-signed-in');
    const credentials = credentialStoreIn(app.dataDir, openSecretBox(app.dataDir));
    const token = (await credentials.read('remote'))?.tokens?.access_token;
    expect(token).toMatch(/^at-/);
    // the token stays in the core: not in the page, not in the settings the page reads
    expect(await page.content()).not.toContain(token);

    await page.getByTestId('close-settings').click();
    await sendTask(page, 'Who am I to the remote server?');
    const clientId = auth.registeredClients[0].client_id;
    await page
      .locator('.message', { hasText: `The server said: client ${clientId} with scopes mcp` })
      .waitFor({ timeout: RUN_TIMEOUT_MS });

    // the access token stops working: the next run refreshes it without asking anyone
    auth.expireAccessTokens();
    await expect
      .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
      .toBe('finished');
    await sendTask(page, 'And now?');
    await expect
      .poll(() => page.locator('.message', { hasText: 'The server said: client' }).count(), { timeout: RUN_TIMEOUT_MS })
      .toBe(2);
    expect(auth.tokenRequests.map((request) => request.grantType)).toEqual(['authorization_code', 'refresh_token']);
    expect(auth.authorizeRequests).toHaveLength(1);

    await openMcpSettings(page);
    await card.getByTestId('mcp-sign-out-button').click();
    await expect
      .poll(() => card.getByTestId('mcp-sign-in').getAttribute('data-signed-in'), { timeout: UI_TIMEOUT_MS })
      .toBe('false');
    expect(await credentials.read('remote')).toBeUndefined();
    await expect
      .poll(() => card.getByTestId('mcp-sign-in-state').innerText(), { timeout: UI_TIMEOUT_MS })
      .toBe('Sign-in needed');
    await watched.screenshot('mcp-signed-out');
    expect(watched.pageErrors).toEqual([]);
  });
});

describe('waiting for a sign-in in the app', () => {
  it('shows "Waiting for sign-in…" while the browser is out, and Cancel stops it', async () => {
    auth = await startTestAuthServer();
    // a browser that opens the page and leaves it there: the person has not signed in yet
    await e2e.serve(whoamiScript, { env: { BROWSER: 'true' } });
    const watched = await e2e.openPage();
    const page = watched.page;
    await page.getByTestId('composer-input').waitFor({ timeout: UI_TIMEOUT_MS });
    await openMcpSettings(page);
    await page.getByTestId('add-mcp').click();
    await page.getByTestId('mcp-name').fill('remote');
    await page.getByTestId('mcp-type').selectOption('http');
    await page.getByTestId('mcp-url').fill(auth.mcpUrl);
    await page.getByTestId('save-mcp').click();
    const card = page.locator('[data-server="remote"]');
    await card.getByTestId('mcp-sign-in-button').click({ timeout: UI_TIMEOUT_MS });
    await expect
      .poll(() => card.getByTestId('mcp-sign-in-state').innerText(), { timeout: UI_TIMEOUT_MS })
      .toBe('Waiting for sign-in… finish it in the browser.');
    expect(await card.getByRole('link', { name: 'Open the sign-in page' }).getAttribute('href')).toContain(
      `${auth.origin}/authorize?`,
    );
    await watched.screenshot('mcp-waiting-for-sign-in');
    await card.getByTestId('mcp-sign-in-cancel').click();
    await expect
      .poll(() => card.getByTestId('mcp-sign-in-state').innerText(), { timeout: UI_TIMEOUT_MS })
      .toBe('Sign-in needed');
    expect(auth.tokenRequests).toEqual([]);
  });
});

describe('a pre-registered OAuth client in the server form', () => {
  it('is saved with its secret encrypted and used at sign-in (client_secret_basic)', async () => {
    auth = await startTestAuthServer();
    auth.preRegister({
      clientId: 'manus-ui',
      clientSecret: 'ui-client-secret-0123',
      authMethod: 'client_secret_basic',
    });
    const app = await e2e.serve(whoamiScript, { env: { BROWSER: FOLLOW_BROWSER } });
    const watched = await e2e.openPage();
    const page = watched.page;
    await page.getByTestId('composer-input').waitFor({ timeout: UI_TIMEOUT_MS });
    await openMcpSettings(page);
    await page.getByTestId('add-mcp').click();
    await page.getByTestId('mcp-name').fill('remote');
    await page.getByTestId('mcp-type').selectOption('http');
    await page.getByTestId('mcp-url').fill(auth.mcpUrl);
    await page.getByTestId('mcp-client-id').fill('manus-ui');
    await page.getByTestId('mcp-client-secret').fill('ui-client-secret-0123');
    await watched.screenshot('mcp-oauth-client-form');
    await page.getByTestId('save-mcp').click();
    const card = page.locator('[data-server="remote"]');
    await card.getByTestId('mcp-sign-in-button').click({ timeout: UI_TIMEOUT_MS });
    await expect
      .poll(() => card.getByTestId('mcp-sign-in').getAttribute('data-signed-in'), { timeout: UI_TIMEOUT_MS })
      .toBe('true');
    expect(auth.registeredClients).toEqual([]);
    expect(auth.tokenRequests).toEqual([
      {
        grantType: 'authorization_code',
        clientAuth: 'client_secret_basic',
        clientId: 'manus-ui',
        resource: auth.mcpUrl,
      },
    ]);
    // the secret is stored encrypted and comes back to the page only masked
    const store = openStore(app.dataDir);
    const saved = JSON.stringify(store.getSetting('settings'));
    store.close();
    expect(saved).toContain('manus-ui');
    expect(saved).not.toContain('ui-client-secret-0123');
    await page.reload();
    await page.getByTestId('composer-input').waitFor({ timeout: UI_TIMEOUT_MS });
    await openMcpSettings(page);
    await page.locator('[data-server="remote"]').getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByTestId('mcp-client-id').inputValue()).toBe('manus-ui');
    expect(await page.getByTestId('mcp-client-secret').inputValue()).toMatch(/^••••/);
    expect(await page.content()).not.toContain('ui-client-secret-0123');
  });
});
