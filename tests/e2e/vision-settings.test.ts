import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright';
import type { ScriptRequest } from '../support/fake-llm/index.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { CHROMIUM_PATH } from './support/browser.js';
import { call, finish, lastToolResult } from './support/scripts.js';
import { API_PREFIX } from '../../src/shared/contract/web-transport.js';
import type { MaskedSettings } from '../../src/shared/contract.js';

const UI_TIMEOUT_MS = 20_000;
const RUN_TIMEOUT_MS = 60_000;
/** a model of the scripted server that sees (by its name); the session's own model, fake-model, does not */
const VISION_MODEL = 'gpt-4o-mini';
const PICTURE_DESCRIPTION = 'A tiny grey dot on white.';
// a 2x2 PNG
const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';
const DESCRIPTION = 'A shop page: the heading "Spring sale" and a red banner "Everything 20% off".';

const e2e = useAppInChromium();
let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer({ '/shop': htmlPage('<h1>Spring sale</h1><p>Everything 20% off</p>', 'Shop') });
});
afterAll(async () => {
  await site?.close();
});

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

/** Adds the provider "eyes" on the scripted server, with a model that sees (the form is open: none is saved yet). */
async function addVisionProvider(page: Page): Promise<void> {
  await page.getByTestId('provider-form').waitFor();
  await page.getByTestId('provider-name').fill('eyes');
  await page.getByTestId('provider-kind').selectOption('compatible');
  await page.getByTestId('provider-url').fill(e2e.app.llm.baseUrl);
  await page.getByTestId('provider-key').fill('sk-eyes-0001');
  await page.getByTestId('provider-model').fill(VISION_MODEL);
  await page.getByTestId('save-provider').click();
  await page.locator('[data-provider="eyes"]').waitFor();
}

describe('vision settings', () => {
  it('a person picks the vision model and image detail; a screenshot and an attached picture then reach the text-only model as descriptions', async () => {
    const script = (request: ScriptRequest) => {
      const body = JSON.stringify(request.body.messages);
      if (request.body.model === VISION_MODEL) {
        return { text: body.includes('image/png') ? PICTURE_DESCRIPTION : DESCRIPTION };
      }
      if (body.includes(PICTURE_DESCRIPTION)) return finish(`Your picture: ${PICTURE_DESCRIPTION}`);
      if (lastToolResult(request).includes('Description of')) return finish(`The page says: ${DESCRIPTION}`);
      return { toolCalls: [call('browser_use', { action: 'go_to_url', url: site.url('/shop') })] };
    };
    const watched = await e2e.open(script, {
      config: { 'browser.executablePath': CHROMIUM_PATH, 'browser.allowPrivateNetwork': 'true' },
    });
    const { page } = watched;
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings').waitFor();
    await addVisionProvider(page);

    // no vision model yet: the choice says what that means
    const visionLlm = page.getByTestId('vision-llm');
    expect(await visionLlm.locator('option:checked').innerText()).toBe(
      'None: images are left out for models that cannot see',
    );
    await visionLlm.selectOption('eyes');
    // each choice is saved as it is made; the select shows it once saved
    await expect.poll(() => visionLlm.inputValue(), { timeout: UI_TIMEOUT_MS }).toBe('eyes');
    await page.getByTestId('image-detail').selectOption('high');
    await expect.poll(async () => (await savedSettings()).imageDetail, { timeout: UI_TIMEOUT_MS }).toBe('high');
    expect((await savedSettings()).visionLlm).toBe('eyes');
    await page.locator('[data-provider="eyes"] .badge', { hasText: 'Vision' }).waitFor();
    await watched.screenshot('settings-vision');

    await page.getByTestId('close-settings').click();
    const input = page.getByTestId('composer-input');
    await input.fill('What does the shop page say?');
    await input.press('Enter');
    await expect
      .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
      .toBe('finished');
    await page.locator('.message', { hasText: 'The page says: A shop page' }).waitFor({ timeout: UI_TIMEOUT_MS });

    // the vision model got the screenshot, with the detail the person chose
    const described = e2e.app.llm.chatRequests.filter((r) => r.body.model === VISION_MODEL);
    expect(described).toHaveLength(1);
    const parts = described[0]!.body.messages.flatMap((m: { content: unknown }) =>
      Array.isArray(m.content) ? m.content : [],
    ) as { type: string; image_url?: { url: string; detail?: string } }[];
    const image = parts.find((part) => part.type === 'image_url');
    expect(image?.image_url?.url).toMatch(/^data:image\/jpeg;base64,/);
    expect(image?.image_url?.detail).toBe('high');
    expect(described[0]!.headers.authorization).toBe('Bearer sk-eyes-0001');
    // the session's model read the description in the tool result
    const last = e2e.app.llm.chatRequests.filter((r) => r.body.model !== VISION_MODEL).at(-1)!;
    expect(lastToolResult({ body: last.body, index: last.index, headers: last.headers })).toContain(DESCRIPTION);

    // a picture attached to a follow-up goes the same way
    await page.getByTestId('attach-input').setInputFiles({
      name: 'dot.png',
      mimeType: 'image/png',
      buffer: Buffer.from(PNG_BASE64, 'base64'),
    });
    await input.fill('And what is on my picture?');
    await input.press('Enter');
    await page.locator('.message', { hasText: 'Your picture: A tiny grey dot' }).waitFor({ timeout: RUN_TIMEOUT_MS });
    const followUp = e2e.app.llm.chatRequests.filter((r) => r.body.model !== VISION_MODEL).at(-1)!;
    expect(JSON.stringify(followUp.body.messages)).toContain(
      "(/workspace/uploads/dot.png) from the person's message, written by the vision model gpt-4o-mini",
    );
    const pictureRequest = e2e.app.llm.chatRequests.filter((r) => r.body.model === VISION_MODEL).at(-1)!;
    expect(JSON.stringify(pictureRequest.body.messages)).toContain(`data:image/png;base64,${PNG_BASE64}`);
  });

  it('shows what `manus config set` saved, and speaks Chinese', async () => {
    const { page } = await e2e.open(() => finish('ok'), {
      config: { 'llms.eyes.model': VISION_MODEL, visionLlm: 'eyes', imageDetail: 'low' },
    });
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings').waitFor();
    expect(await page.getByTestId('vision-llm').inputValue()).toBe('eyes');
    expect(await page.getByTestId('image-detail').inputValue()).toBe('low');

    await page.locator('[data-tab="appearance"]').click();
    await page.getByTestId('language').selectOption('zh');
    await page.locator('[data-tab="providers"]').click();
    await expect
      .poll(() => page.getByTestId('vision-llm').locator('option').first().innerText())
      .toBe('无：不能看图的模型收不到图片');
    expect(await page.getByTestId('image-detail').locator('option:checked').innerText()).toBe('低（更省，512 像素）');
    await e2e.watched.screenshot('settings-vision-zh');
  });
});
