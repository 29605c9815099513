import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import { sequence, type Script } from '../support/fake-llm/index.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { call, finish, lastToolResult } from './support/scripts.js';
import { API_PREFIX } from '../../src/shared/contract/web-transport.js';
import type { MaskedSettings } from '../../src/shared/contract.js';
import { shellWord } from '../../src/shared/settings/mcp-launch.js';

const UI_TIMEOUT_MS = 20_000;
const RUN_TIMEOUT_MS = 60_000;
/** no model from the environment: the saved settings are the only truth, as on a fresh install */
const NO_ENV_MODEL = { MANUS_LLM_API_KEY: '', MANUS_LLM_MODEL: '', MANUS_LLM_BASE_URL: '', OPENAI_API_KEY: '' };
const EVERYTHING_ENTRY = resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
// a 2x2 PNG
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

const MINIMAL_PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj ' +
  '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

const e2e = useAppInChromium();

async function sendTask(page: Page, task: string): Promise<void> {
  const input = page.getByTestId('composer-input');
  await input.fill(task);
  await input.press('Enter');
}

async function waitFinished(page: Page): Promise<void> {
  await expect
    .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
    .toBe('finished');
}

/** The settings as the core returns them to a UI (masked), through the served API. */
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

/** Adds a provider through the settings form, pointed at the scripted LLM. */
async function addProvider(page: Page, llmBaseUrl: string, key: string): Promise<void> {
  const form = page.getByTestId('provider-form');
  await form.waitFor();
  await page.getByTestId('provider-name').fill('local');
  await page.getByTestId('provider-kind').selectOption('compatible');
  await page.getByTestId('provider-url').fill(llmBaseUrl);
  await page.getByTestId('provider-key').fill(key);
  await page.getByTestId('test-provider').click();
  const result = page.getByTestId('test-result');
  await result.waitFor({ timeout: UI_TIMEOUT_MS });
  expect(await result.getAttribute('class')).toContain('ok');
  // the model list came from GET /v1/models: the first one is picked
  await expect.poll(() => page.getByTestId('provider-model').inputValue()).not.toBe('');
  await page.getByTestId('save-provider').click();
  await page.locator('[data-provider="local"]').waitFor();
}

/** Drops files on an element the way a person dragging them from the desktop does. */
async function dropFiles(page: Page, testId: string, files: { name: string; mimeType: string; base64: string }[]) {
  await page.getByTestId(testId).evaluate((target, dropped) => {
    const transfer = new DataTransfer();
    for (const file of dropped) {
      const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
      transfer.items.add(new File([bytes], file.name, { type: file.mimeType }));
    }
    target.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, files);
}

describe('first run and settings', () => {
  it('leads a first run without a key to settings, where a provider is added, tested and used', async () => {
    const page = (await e2e.open(sequence(finish('Hello from the new provider.')), { env: NO_ENV_MODEL })).page;
    const firstRun = page.getByTestId('first-run');
    await firstRun.waitFor({ timeout: UI_TIMEOUT_MS });
    await e2e.watched.screenshot('first-run');
    await page.getByTestId('first-run-add-provider').click();
    await page.getByTestId('settings').waitFor();

    const key = 'sk-test-abcdef1234567890';
    await addProvider(page, e2e.app.llm.baseUrl, key);
    await e2e.watched.screenshot('settings-providers');
    // the key is shown masked and never reaches the page unmasked
    expect(await page.locator('[data-provider="local"] .masked-key').innerText()).toBe('••••7890');
    expect(await page.content()).not.toContain(key);
    expect(e2e.app.logs()).not.toContain(key);

    await page.getByTestId('close-settings').click();
    await expect.poll(() => page.getByTestId('first-run').count()).toBe(0);
    await sendTask(page, 'Say hello');
    await waitFinished(page);
    await page.locator('.message', { hasText: 'Hello from the new provider.' }).waitFor();
    // the run went to the provider saved in settings, with its key
    const chat = e2e.app.llm.chatRequests.at(-1)!;
    expect(chat.headers.authorization).toBe(`Bearer ${key}`);
  });

  it('adds an MCP server, shows it connected with its tools, and saves a per-tool approval', async () => {
    const page = (await e2e.open(sequence(finish('ok')))).page;
    await page.keyboard.press('Control+,');
    await page.getByTestId('settings').waitFor();
    // the model from the environment is named, so an empty provider list does not puzzle
    expect(await page.getByTestId('env-model').innerText()).toContain('fake-model');
    await page.locator('[data-tab="mcp"]').click();
    await page.getByTestId('add-mcp').click();
    await page.getByTestId('mcp-name').fill('everything');
    await page.getByTestId('mcp-command').fill(process.execPath);
    await page.getByTestId('mcp-args').fill(`${EVERYTHING_ENTRY}\nstdio`);
    await page.getByTestId('save-mcp').click();

    const server = page.locator('[data-server="everything"]');
    await expect.poll(() => server.getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
    await server.getByTestId('mcp-tools-toggle').click();
    const echo = server.locator('tr[data-tool="echo"]');
    await echo.waitFor();
    expect(await server.locator('tr[data-tool]').count()).toBeGreaterThan(3);
    await echo.locator('select').selectOption('ask');
    await page.getByTestId('saved').waitFor();
    await e2e.watched.screenshot('settings-mcp');

    const settings = await savedSettings();
    expect(settings.mcp.servers.everything.toolApproval).toEqual({ echo: 'ask' });

    // disabling it is live too
    await server.locator('.switch').click();
    await expect.poll(() => server.getAttribute('data-state'), { timeout: 15_000 }).toBe('disabled');

    // import a {"mcpServers": ...} file: its token is saved, and shown only masked
    const token = 'tok-import-0123456789wxyz';
    await page.getByTestId('import-mcp').click();
    await page.getByTestId('mcp-import-text').fill(
      JSON.stringify({
        mcpServers: {
          imported: { command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'], env: { API_TOKEN: token } },
          'docs\x1b]8;;http://evil.example/\x1b\\': { command: 'node' },
        },
      }),
    );
    await page.getByTestId('import-mcp-submit').click();
    await expect.poll(() => page.getByTestId('mcp-import-skipped').textContent()).toContain('1-40 of a-z');
    // an imported command is shown in full and does not start until the person confirms it
    const imported = page.locator('[data-server="imported"]');
    await expect.poll(() => imported.getAttribute('data-state'), { timeout: 30_000 }).toBe('unconfirmed');
    expect(await imported.getByTestId('mcp-launch').textContent()).toBe(
      [process.execPath, EVERYTHING_ENTRY, 'stdio'].map(shellWord).join(' '),
    );
    expect(await imported.getByTestId('mcp-unconfirmed').textContent()).toContain('Sets API_TOKEN');
    await e2e.watched.screenshot('settings-mcp-unconfirmed');
    await imported.getByTestId('mcp-confirm').click();
    await expect.poll(() => imported.getAttribute('data-state'), { timeout: 30_000 }).toBe('connected');
    expect(await imported.getByTestId('mcp-unconfirmed').count()).toBe(0);
    await imported.getByRole('button', { name: 'Edit' }).click();
    expect(await page.getByTestId('mcp-form').locator('textarea').nth(1).inputValue()).toBe('API_TOKEN=••••wxyz');
    expect(await page.content()).not.toContain(token);
    expect((await savedSettings()).mcp.servers.imported).toMatchObject({ env: { API_TOKEN: '••••wxyz' } });
  });

  it('shows the sandbox status, browser and approval settings, and switches to Chinese and the light theme', async () => {
    const page = (await e2e.open(sequence(finish('ok')))).page;
    await page.getByTestId('open-settings').click();
    await page.locator('[data-tab="sandbox"]').click();
    await page.getByTestId('image-state').waitFor({ timeout: UI_TIMEOUT_MS });
    await e2e.watched.screenshot('settings-sandbox');
    await page.getByTestId('sandbox-memory').fill('2048');
    await page.getByTestId('save-sandbox').click();
    await page.getByTestId('saved').waitFor();

    // the browser stays off this computer and the local network until the user allows it
    await page.locator('[data-tab="browser"]').click();
    const privateNetwork = page.getByTestId('browser-private-network');
    expect(await privateNetwork.isChecked()).toBe(false);
    await privateNetwork.check();
    await page.getByTestId('save-browser').click();
    await page.getByTestId('saved').waitFor();
    await e2e.watched.screenshot('settings-browser');

    await page.locator('[data-tab="approval"]').click();
    await page.locator('[data-policy="risky"]').click();
    await expect.poll(() => page.locator('[data-policy="risky"]').getAttribute('class')).toContain('active');
    await e2e.watched.screenshot('settings-approval');

    await page.locator('[data-tab="appearance"]').click();
    await page.getByTestId('language').selectOption('zh');
    await expect.poll(() => page.locator('.settings-nav h1').innerText()).toBe('设置');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.getByTestId('theme').selectOption('light');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await e2e.watched.screenshot('settings-appearance-zh-light');

    // the choice survives a reload; the whole app speaks Chinese
    await page.reload();
    await page.getByTestId('composer-input').waitFor();
    expect(await page.getByTestId('new-session').innerText()).toContain('新建会话');
    expect(await page.getByTestId('send').innerText()).toContain('发送');
    await e2e.watched.screenshot('welcome-zh');
    const saved = await savedSettings();
    expect(saved.sandbox.memoryMb).toBe(2048);
    expect(saved.approval.policy).toBe('risky');
    expect(saved.browser.allowPrivateNetwork).toBe(true);
  });
});

describe('approval cards', () => {
  it('approves, denies and always allows file writes; a denial reaches the model as the tool result', async () => {
    const create = (path: string) => call('str_replace_editor', { command: 'create', path, file_text: path });
    const script: Script = (request) => {
      if (request.index === 0) return { toolCalls: [create('approved.txt')] };
      if (request.index === 1) return { toolCalls: [create('denied.txt')] };
      if (request.index === 2)
        return { text: `Second write: ${lastToolResult(request)}`, toolCalls: [create('third.txt')] };
      if (request.index === 3) return { toolCalls: [create('fourth.txt')] };
      return finish('All written.');
    };
    const page = (await e2e.open(script, { config: { 'approval.policy': 'risky' } })).page;
    await sendTask(page, 'Write some files');
    const waiting = (name: string) =>
      page.locator('.ask-card[data-kind="approval"][data-status="waiting"]', { hasText: name });
    await waiting('approved.txt').waitFor({ timeout: RUN_TIMEOUT_MS });
    await e2e.watched.screenshot('approval-card-waiting');
    await waiting('approved.txt').getByTestId('approve').click();
    await waiting('denied.txt').waitFor({ timeout: RUN_TIMEOUT_MS });
    await waiting('denied.txt').getByTestId('deny').click();
    await waiting('third.txt').waitFor({ timeout: RUN_TIMEOUT_MS });
    await waiting('third.txt').getByTestId('always-allow').click();
    await waitFinished(page);

    const reply = await page.locator('.message', { hasText: 'Second write:' }).innerText();
    expect(reply).toMatch(/denied/i);
    // the fourth write ran without a card: "always allow" was remembered
    expect(await page.locator('.ask-card[data-kind="approval"] .ask-answer').allInnerTexts()).toEqual([
      '✓ Approved',
      '✕ Denied',
      '✓ Always allowed',
    ]);
    expect((await savedSettings()).approval.alwaysAllow).toEqual(['str_replace_editor']);
    await e2e.watched.screenshot('approval-answered');

    // the approved files are in the workspace, the denied one is not
    await page.getByTestId('toggle-files').click();
    for (const name of ['approved.txt', 'third.txt', 'fourth.txt']) {
      await page.locator(`[data-file="${name}"]`).waitFor({ timeout: UI_TIMEOUT_MS });
    }
    expect(await page.locator('[data-file="denied.txt"]').count()).toBe(0);
  });
});

describe('sessions', () => {
  it('searches, renames, exports, reviews and deletes sessions', async () => {
    const page = (
      await e2e.open(
        sequence(
          finish('Penguins live in the southern hemisphere.'),
          {
            text: 'Looking it up.',
            toolCalls: [call('str_replace_editor', { command: 'create', path: 'notes.md', file_text: '# Notes' })],
          },
          finish('Giraffes sleep standing up.'),
        ),
      )
    ).page;
    await sendTask(page, 'Tell me about penguins');
    await waitFinished(page);
    // a new session from the keyboard (Ctrl+Shift+O: browsers keep Ctrl+N for themselves)
    await page.keyboard.press('Control+Shift+O');
    await expect.poll(() => page.getByTestId('session-status').count()).toBe(0);
    await sendTask(page, 'Tell me about giraffes');
    await waitFinished(page);
    const rows = page.locator('[data-session-row]');
    await expect.poll(() => rows.count()).toBe(2);
    // newest first, with status badges
    expect(await rows.first().innerText()).toContain('giraffes');
    await expect.poll(() => rows.first().locator('.status-badge').getAttribute('data-status')).toBe('finished');

    // full-text search over messages (Ctrl+K focuses the box)
    await page.keyboard.press('Control+k');
    await page.keyboard.type('hemisphere');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('penguins');
    expect(await rows.first().locator('mark').innerText()).toBe('hemisphere');
    await e2e.watched.screenshot('sessions-search');
    await page.getByTestId('session-search').fill('');
    await expect.poll(() => rows.count()).toBe(2);

    // rename
    const giraffes = rows.first();
    await giraffes.hover();
    await giraffes.getByTestId('session-menu').click();
    await giraffes.locator('[data-action="rename"]').click();
    await page.getByTestId('rename-input').fill('Giraffe facts');
    await page.getByTestId('rename-input').press('Enter');
    await expect.poll(() => rows.first().innerText()).toContain('Giraffe facts');

    // export as Markdown and JSON
    for (const [action, pattern] of [
      ['export-md', /Giraffes sleep standing up/],
      ['export-json', /"Giraffes sleep standing up\."/],
    ] as const) {
      await rows.first().hover();
      await rows.first().getByTestId('session-menu').click();
      const download = page.waitForEvent('download');
      await rows.first().locator(`[data-action="${action}"]`).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(
        action === 'export-md' ? /^giraffe-facts\.md$/ : /^giraffe-facts\.json$/,
      );
      expect(readFileSync((await file.path())!, 'utf8')).toMatch(pattern);
    }

    // review the saved session: jump back through its timeline
    await rows.first().locator('.session-link').click();
    await page.getByTestId('toggle-review').click();
    const review = page.getByTestId('review');
    await review.waitFor();
    await review.locator('.message', { hasText: 'Giraffes sleep standing up.' }).waitFor();
    // jump to the tool call: the reply written after it is not there yet
    await review.locator('[data-mark="tool"]').first().click();
    await expect.poll(() => review.locator('.message', { hasText: 'Giraffes sleep standing up.' }).count()).toBe(0);
    await review.locator('.tool-card[data-tool="str_replace_editor"]').waitFor();
    const position = await page.getByTestId('review-position').innerText();
    await e2e.watched.screenshot('review-mode');
    // one step back goes before the tool call; Next steps forward again
    await page.getByTestId('review-prev').click();
    await expect.poll(() => review.locator('.tool-card[data-tool="str_replace_editor"]').count()).toBe(0);
    await page.getByTestId('review-next').click();
    await expect.poll(() => page.getByTestId('review-position').innerText()).toBe(position);
    await review.locator('[data-mark="done"]').click();
    await review.locator('.message', { hasText: 'Giraffes sleep standing up.' }).waitFor();
    await page.getByTestId('review-exit').click();

    // delete, with confirmation
    await rows.first().hover();
    await rows.first().getByTestId('session-menu').click();
    await rows.first().locator('[data-action="delete"]').click();
    await page.getByTestId('confirm-dialog').waitFor();
    await e2e.watched.screenshot('sessions-delete-confirm');
    await page.getByTestId('confirm').click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().innerText()).toContain('penguins');
    expect(e2e.watched.dialogs).toEqual([]);
  });
});

describe('workspace files', () => {
  it('copies dropped files into the workspace, tells the agent their paths, and previews CSV, image and HTML', async () => {
    const csv = 'city,population\nParis,2100000\n"Lyon, FR",513000\n';
    const html = '<h1 id="title">Report</h1><script>alert("ran")</script>';
    const page = (await e2e.open(sequence(finish('I see the files.')))).page;
    // this screen in the dark theme
    await page.evaluate(() => localStorage.setItem('manus.theme', 'dark'));
    await page.reload();
    await page.getByTestId('composer-input').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await dropFiles(page, 'composer', [
      { name: 'cities.csv', mimeType: 'text/csv', base64: Buffer.from(csv).toString('base64') },
      { name: 'dot.png', mimeType: 'image/png', base64: PNG_BASE64 },
      { name: 'report.html', mimeType: 'text/html', base64: Buffer.from(html).toString('base64') },
      { name: 'paper.pdf', mimeType: 'application/pdf', base64: Buffer.from(MINIMAL_PDF).toString('base64') },
    ]);
    // and one more through the attach button's file picker
    await page.getByTestId('attach-input').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('picked'),
    });
    await expect.poll(() => page.getByTestId('attachments').locator('li').count()).toBe(5);
    await expect.poll(() => page.getByTestId('attachments').locator('li[data-uploaded="true"]').count()).toBe(5);
    await e2e.watched.screenshot('composer-attachments');
    await sendTask(page, 'Look at these files');
    await waitFinished(page);
    const prompt = JSON.stringify(e2e.app.llm.chatRequests[0]!.body);
    expect(prompt).toContain('/workspace/uploads/cities.csv');
    expect(prompt).toContain('/workspace/uploads/dot.png');
    expect(prompt).toContain('/workspace/uploads/notes.txt');

    await page.getByTestId('toggle-files').click();
    await page.locator('[data-file="uploads/cities.csv"]').click();
    const table = page.getByTestId('preview-csv');
    await table.waitFor();
    expect(await table.locator('th').allInnerTexts()).toEqual(['city', 'population']);
    expect(await table.locator('tbody tr').nth(1).locator('td').first().innerText()).toBe('Lyon, FR');
    await e2e.watched.screenshot('workspace-csv-dark');

    await page.getByTestId('preview-back').click();
    await page.locator('[data-file="uploads/dot.png"]').click();
    const image = page.getByTestId('preview-image');
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    await e2e.watched.screenshot('workspace-image-dark');

    await page.getByTestId('preview-back').click();
    await page.locator('[data-file="uploads/report.html"]').click();
    const frame = page.getByTestId('preview-html');
    await frame.waitFor();
    expect(await frame.getAttribute('sandbox')).toBe('');
    await expect
      .poll(() => page.frameLocator('[data-testid="preview-html"]').locator('#title').innerText())
      .toBe('Report');
    expect(e2e.watched.dialogs).toEqual([]);

    // a PDF opens in a blob: frame the page's CSP allows
    await page.getByTestId('preview-back').click();
    await page.locator('[data-file="uploads/paper.pdf"]').click();
    const pdf = page.getByTestId('preview-pdf');
    await pdf.waitFor();
    expect(await pdf.getAttribute('src')).toMatch(/^blob:/);
    expect(e2e.watched.console.filter((line) => /Content Security Policy/i.test(line))).toEqual([]);

    // download
    const download = page.waitForEvent('download');
    await page.getByTestId('download-file').click();
    expect((await download).suggestedFilename()).toBe('paper.pdf');
  });
});
