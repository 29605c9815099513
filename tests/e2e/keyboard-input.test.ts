import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sequence } from '../support/fake-llm/index.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import type { WatchedPage } from './support/browser.js';
import { call, finish, lastToolResult } from './support/scripts.js';

const UI_TIMEOUT_MS = 20_000;
/** a run that starts the sandbox and runs python in it */
const RUN_TIMEOUT_MS = 90_000;
/** a 30 MB file through the browser, a chunk per request */
const UPLOAD_TIMEOUT_MS = 60_000;
const MB = 1024 * 1024;

const e2e = useAppInChromium();

async function sendTask(target: WatchedPage, task: string): Promise<void> {
  const input = target.page.getByTestId('composer-input');
  await input.fill(task);
  await input.press('Enter');
}

function status(target: WatchedPage) {
  return target.page.getByTestId('session-status');
}

/** What the tool cards under `scope` show, in order: name, summary, status, and the text of each opened body. */
async function toolCards(target: WatchedPage, scope: string) {
  const cards = target.page.locator(`${scope} .tool-card`);
  const shown = [];
  for (let index = 0; index < (await cards.count()); index += 1) {
    const card = cards.nth(index);
    if (!(await card.getAttribute('class'))?.includes('open')) await card.locator('.tool-card-head').click();
    await card.locator('.tool-card-body').waitFor();
    shown.push({
      summary: await card.locator('.tool-summary').innerText(),
      status: await card.locator('.tool-status').getAttribute('class'),
      body: await card.locator('.tool-card-body').innerText(),
    });
  }
  return shown;
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

  it('keeps one card per call when the provider names every call call_0: live, after a reload, in review and in the export', async () => {
    const steps = [
      call(
        'str_replace_editor',
        { command: 'create', path: '/workspace/alpha.txt', file_text: 'alpha-content' },
        'call_0',
      ),
      call(
        'str_replace_editor',
        { command: 'create', path: '/workspace/beta.txt', file_text: 'beta-content' },
        'call_0',
      ),
      call('str_replace_editor', { command: 'view', path: '/workspace/alpha.txt' }, 'call_0'),
    ];
    const page = await e2e.open((request) =>
      request.index < steps.length
        ? { toolCalls: [steps[request.index]] }
        : finish('Three files handled.', { toolCalls: [call('terminate', { status: 'success' }, 'call_0')] }),
    );
    await sendTask(page, 'Write two files and read one back');
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('finished');
    expect(
      e2e.app.llm.chatRequests.flatMap((request) =>
        request.body.messages
          .filter((m: { role: string }) => m.role === 'tool')
          .map((m: { tool_call_id: string }) => m.tool_call_id),
      ),
    ).toContain('call_0');

    const expectThreeCards = (shown: Awaited<ReturnType<typeof toolCards>>) => {
      expect(shown.map((card) => card.summary)).toEqual([
        expect.stringContaining('alpha.txt'),
        expect.stringContaining('beta.txt'),
        expect.stringContaining('alpha.txt'),
      ]);
      for (const card of shown) expect(card.status).toContain('status-done');
      expect(shown[0].body).toContain('alpha-content');
      expect(shown[1].body).toContain('beta-content');
      expect(shown[2].body).toContain('alpha-content');
      expect(shown[2].body).not.toContain('beta-content');
    };
    expectThreeCards(await toolCards(page, '.main-pane > .timeline-frame'));
    await page.screenshot('reused-call-ids-live');

    await page.page.reload();
    await page.page
      .locator('.message-assistant', { hasText: 'Three files handled.' })
      .waitFor({ timeout: UI_TIMEOUT_MS });
    expectThreeCards(await toolCards(page, '.main-pane > .timeline-frame'));

    await page.page.getByTestId('toggle-review').click();
    await page.page.getByTestId('review').waitFor();
    expectThreeCards(await toolCards(page, '.review-timeline'));
    await page.screenshot('reused-call-ids-review');

    await page.page.getByTestId('session-menu').first().click();
    const [download] = await Promise.all([
      page.page.waitForEvent('download'),
      page.page.locator('.row-menu [data-action="export-md"]').click(),
    ]);
    const markdown = await readFile((await download.path())!, 'utf8');
    const sections = markdown.split(/^### Tool /m).filter((section) => section.startsWith('`str_replace_editor`'));
    expect(sections).toHaveLength(3);
    expect(sections[0]).toMatch(/alpha\.txt[\s\S]*created/i);
    expect(sections[1]).toMatch(/beta\.txt[\s\S]*created/i);
    expect(sections[2]).toContain('alpha-content');

    await page.page.getByTestId('session-menu').first().click();
    const [jsonDownload] = await Promise.all([
      page.page.waitForEvent('download'),
      page.page.locator('.row-menu [data-action="export-json"]').click(),
    ]);
    const exported = JSON.parse(await readFile((await jsonDownload.path())!, 'utf8')) as {
      events: Array<{ type: string; name?: string; callId?: string; toolId?: string }>;
    };
    const editorCalls = exported.events.filter((event) => event.type === 'tool' && event.name === 'str_replace_editor');
    expect(new Set(editorCalls.map((event) => event.callId))).toEqual(new Set(['call_0']));
    expect(new Set(editorCalls.map((event) => event.toolId)).size).toBe(3);
  });

  it("answers the agent's question from the message box, which says it will; the model gets the answer next", async () => {
    const page = await e2e.open((request) =>
      request.index === 0
        ? {
            text: 'One thing first.',
            toolCalls: [call('ask_human', { inquire: 'Which **port** should the server use?' })],
          }
        : finish(`Using port ${lastToolResult(request)}.`),
    );
    await sendTask(page, 'Start a web server');
    const card = page.page.locator('.ask-card[data-kind="question"]');
    await card.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await card.locator('strong').innerText()).toBe('port');
    const target = page.page.getByTestId('composer-answering');
    await target.waitFor();
    expect(await target.innerText()).toContain('Which **port** should the server use?');
    const input = page.page.getByTestId('composer-input');
    expect(await input.getAttribute('placeholder')).toMatch(/answer/i);
    await expect.poll(() => input.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.page.getByTestId('stop').waitFor();
    await page.screenshot('answer-from-composer');

    await input.pressSequentially('8080');
    await input.press('Enter');
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('finished');
    await page.page.locator('.message-assistant', { hasText: 'Using port 8080.' }).waitFor();
    expect(lastToolResult(e2e.app.llm.chatRequests[1])).toContain('8080');
    expect(await card.getAttribute('data-status')).toBe('answered');
    expect(await card.locator('.ask-answer').innerText()).toContain('8080');
    // an answer, not a new message: one user bubble, one run, the box empty and back to its usual self
    expect(await page.page.locator('.message-user').count()).toBe(1);
    expect(e2e.app.llm.chatRequests).toHaveLength(2);
    expect(await input.inputValue()).toBe('');
    expect(await target.count()).toBe(0);
  });

  it("shows the chart python saved in the sandbox in the agent's final answer", async () => {
    const code = [
      'import matplotlib',
      'matplotlib.use("Agg")',
      'import matplotlib.pyplot as plt',
      'plt.plot([1, 4, 9, 16], marker="o")',
      'plt.title("Squares")',
      'plt.savefig("/workspace/squares.png")',
      'print("saved")',
    ].join('\n');
    const page = await e2e.open((request) =>
      request.index === 0
        ? { text: 'Drawing it.', toolCalls: [call('python_execute', { code })] }
        : finish('Here is the chart of the squares.'),
    );
    await sendTask(page, 'Chart the first four squares');
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS }).toBe('finished');
    const answer = page.page.locator('.message-assistant', { hasText: 'Here is the chart of the squares.' });
    const image = answer.locator('.message-images img[alt="squares.png"]');
    await image.waitFor({ timeout: UI_TIMEOUT_MS });
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
      .toBeGreaterThan(100);
    await page.screenshot('chart-in-final-answer');

    await page.page.reload();
    await answer.locator('.message-images img[alt="squares.png"]').waitFor({ timeout: UI_TIMEOUT_MS });
    // the figure python's driver kept and the file the code saved, each once
    const shown = await answer
      .locator('.message-images img')
      .evaluateAll((images) => images.map((image) => image.getAttribute('alt')));
    expect(shown.sort()).toEqual(['figures/figure-1.png', 'squares.png']);

    // a file's preview closes with Esc, back to the list, as a dialog would
    await page.page.getByTestId('toggle-files').click();
    await page.page.locator('[data-file="squares.png"]').click();
    await page.page.getByTestId('preview-image').waitFor({ timeout: UI_TIMEOUT_MS });
    await page.page.keyboard.press('Escape');
    await page.page.getByTestId('file-preview').waitFor({ state: 'detached' });
    await page.page.getByTestId('file-list').waitFor();
  });

  it('uploads a 30 MB file a chunk per request, refuses one over the limit clearly, and keeps the note out of the bubble', async () => {
    const page = await e2e.open(sequence(finish('Got the files.')));
    const folder = mkdtempSync(join(tmpdir(), 'manus-upload-'));
    const big = join(folder, 'big.bin');
    const bigBytes = randomBytes(30 * MB);
    writeFileSync(big, bigBytes);
    // sparse: over the 100 MB default without writing 101 MB
    const huge = join(folder, 'huge.bin');
    writeFileSync(huge, '');
    truncateSync(huge, 101 * MB);
    const notes = join(folder, 'notes.txt');
    writeFileSync(notes, 'some notes');
    const chunkBodies: number[] = [];
    page.page.on('request', (request) => {
      if (request.url().endsWith('/api/appendUpload')) chunkBodies.push(request.postDataBuffer()?.length ?? 0);
    });

    const input = page.page.getByTestId('composer-input');
    await input.fill('Compare these files');
    await page.page.getByTestId('attach-input').setInputFiles([notes, huge]);
    const banner = page.page.locator('.problem-banner[data-problem="too_large"]');
    await banner.waitFor({ timeout: UI_TIMEOUT_MS });
    expect(await banner.innerText()).toContain('huge.bin');
    expect(await banner.innerText()).toContain('100.0 MB');
    await page.screenshot('upload-over-limit');
    // nothing else lost: the other file and the typed text stay
    const chips = page.page.getByTestId('attachments').locator('li');
    await expect
      .poll(() => chips.evaluateAll((items) => items.map((item) => item.getAttribute('data-name'))))
      .toEqual(['notes.txt']);
    expect(await input.inputValue()).toBe('Compare these files');

    await page.page.getByTestId('attach-input').setInputFiles(big);
    await expect
      .poll(() => chips.evaluateAll((items) => items.map((item) => item.getAttribute('data-uploaded'))), {
        timeout: UPLOAD_TIMEOUT_MS,
      })
      .toEqual(['true', 'true']);
    await input.press('Enter');
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('finished');

    // streamed by design: 30 MB went as at least 30 requests of one chunk each, none near the file's size
    expect(chunkBodies.length).toBeGreaterThanOrEqual(30);
    expect(Math.max(...chunkBodies)).toBeLessThan(2 * MB);
    const saved = readdirSync(e2e.app.dataDir, { recursive: true, encoding: 'utf8' }).find((path) =>
      path.endsWith(join('uploads', 'big.bin')),
    );
    expect(saved).toBeDefined();
    const savedBytes = readFileSync(join(e2e.app.dataDir, saved!));
    expect(createHash('sha256').update(savedBytes).digest('hex')).toBe(
      createHash('sha256').update(bigBytes).digest('hex'),
    );
    expect(JSON.stringify(e2e.app.llm.chatRequests[0]!.body)).toContain(
      'Attached files (copied into the workspace): /workspace/uploads/notes.txt, /workspace/uploads/big.bin',
    );

    const bubble = page.page.locator('.message-user');
    expect(await bubble.locator('.plain-text').innerText()).toBe('Compare these files');
    expect(await bubble.innerText()).not.toContain('Attached files');
    expect(await bubble.getByTestId('message-attachments').locator('li').allInnerTexts()).toEqual([
      expect.stringContaining('notes.txt'),
      expect.stringContaining('big.bin'),
    ]);
    await page.screenshot('bubble-with-attachments');
    rmSync(folder, { recursive: true, force: true });
  });

  it('sends a message given while its files upload once they are uploaded; taking a file off stops it', async () => {
    const page = await e2e.open(sequence(finish('Got the picture.')));
    // the uploads' chunks are held until the test lets them through: the files are still uploading when Enter is pressed
    let releaseUploads!: () => void;
    const uploadsReleased = new Promise<void>((resolve) => (releaseUploads = resolve));
    await page.page.route('**/api/appendUpload', async (route) => {
      await uploadsReleased;
      await route.continue();
    });
    const input = page.page.getByTestId('composer-input');
    const send = page.page.getByTestId('send');
    const chips = page.page.getByTestId('attachments').locator('li');
    const file = (name: string) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(`the ${name}`) });

    // taken off while the message waits: nothing is sent, and the text stays
    await page.page.getByTestId('attach-input').setInputFiles(file('draft.txt'));
    await input.fill('Read my draft');
    await input.press('Enter');
    await expect.poll(() => send.getAttribute('data-waiting-for-uploads')).toBe('true');
    expect(await send.innerText()).toBe('Sends once uploaded…');
    await chips.first().getByRole('button').click();
    await expect.poll(() => send.getAttribute('data-waiting-for-uploads')).toBeNull();
    // the wait is over at once, though the file's upload is still held: Send can be pressed again
    await expect.poll(() => send.isEnabled()).toBe(true);
    expect(await send.innerText()).toBe('Send ↵');
    expect(await input.inputValue()).toBe('Read my draft');
    expect(await page.page.locator('.message-user').count()).toBe(0);
    expect(e2e.app.llm.chatRequests).toHaveLength(0);

    // left on: the message goes once the file is uploaded, with it
    await page.page.getByTestId('attach-input').setInputFiles(file('notes.txt'));
    await input.fill('Read my notes');
    await input.press('Enter');
    await expect.poll(() => send.getAttribute('data-waiting-for-uploads')).toBe('true');
    expect(await chips.getAttribute('data-uploaded')).toBe('false');
    releaseUploads();
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: UI_TIMEOUT_MS }).toBe('finished');
    expect(await page.page.locator('.message-user').count()).toBe(1);
    expect(JSON.stringify(e2e.app.llm.chatRequests[0]!.body)).toContain(
      'Attached files (copied into the workspace): /workspace/uploads/notes.txt',
    );
    expect(JSON.stringify(e2e.app.llm.chatRequests[0]!.body)).not.toContain('draft.txt');
    expect(await chips.count()).toBe(0);
  });

  it('works in a folder chosen by path: a bad path gets a clear reason, a good one is the workspace the tools see', async () => {
    const page = await e2e.open((request) =>
      request.index === 0
        ? { toolCalls: [call('str_replace_editor', { command: 'view', path: '/workspace/hello.txt' })] }
        : finish(`The file says: ${lastToolResult(request)}`),
    );
    const mine = realpathSync(mkdtempSync(join(tmpdir(), 'manus-mine-')));
    writeFileSync(join(mine, 'hello.txt'), 'hello from my own folder');
    await page.page.getByTestId('choose-folder').click();
    const path = page.page.getByTestId('folder-path');
    const error = page.page.getByTestId('folder-error');
    const refusalFor = async (typed: string) => {
      await path.fill(typed);
      await page.page.getByTestId('use-folder').click();
      await error.waitFor();
      return { code: await error.getAttribute('data-code'), text: await error.innerText() };
    };
    expect(await refusalFor('projects/mine')).toEqual({
      code: 'not_absolute',
      text: expect.stringMatching(/full path/),
    });
    expect(await refusalFor(join(mine, 'missing'))).toEqual({
      code: 'not_found',
      text: expect.stringMatching(/does not exist/),
    });
    expect(await refusalFor(join(mine, 'hello.txt'))).toEqual({
      code: 'not_a_folder',
      text: expect.stringMatching(/file, not a folder/),
    });
    expect(await refusalFor(e2e.app.dataDir)).toEqual({
      code: 'inside_data_folder',
      text: expect.stringMatching(/own data/),
    });
    await page.screenshot('folder-refused');

    await path.fill(mine);
    await path.press('Enter');
    expect(await page.page.getByTestId('chosen-folder').innerText()).toBe(mine);
    await sendTask(page, 'Read my hello file');
    await expect.poll(() => status(page).getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS }).toBe('finished');
    await page.page.locator('.message-assistant', { hasText: 'hello from my own folder' }).waitFor();
    expect(lastToolResult(e2e.app.llm.chatRequests[1]!)).toContain('hello from my own folder');
    await page.screenshot('folder-used');

    // the next new session offers it among the recent folders
    await page.page.keyboard.press('Control+Shift+O');
    await page.page.getByTestId('choose-folder').click();
    await page.page.getByTestId('recent-folder').first().waitFor();
    expect(await page.page.getByTestId('recent-folder').allInnerTexts()).toEqual([mine]);
    await page.page.getByTestId('recent-folder').first().click();
    expect(await page.page.getByTestId('chosen-folder').innerText()).toBe(mine);
    rmSync(mine, { recursive: true, force: true });
  });
});
