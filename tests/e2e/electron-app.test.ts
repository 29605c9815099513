import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureAppBuilt } from './support/renderer-build.js';
import { describe, expect, it } from 'vitest';
import { _electron as electron } from 'playwright';
import { sequence, startFakeLlm } from '../support/fake-llm/index.js';
import { ARTIFACTS_DIR } from './support/browser.js';
import { finish } from './support/scripts.js';

const ELECTRON_BINARY_DIR = join('node_modules', 'electron', 'dist');
const UI_TIMEOUT_MS = 30_000;

describe('the desktop app', () => {
  it('starts the real Electron app, runs a task and shows the streamed reply', async (context) => {
    if (!existsSync(ELECTRON_BINARY_DIR)) {
      context.skip(
        `the Electron binary is not installed here (${ELECTRON_BINARY_DIR} is missing, installs use ELECTRON_SKIP_BINARY_DOWNLOAD); the same flow runs in Chromium against manus serve in live-session.test.ts`,
      );
    }
    ensureAppBuilt();
    const llm = await startFakeLlm(sequence(finish('Hello from **the desktop app**.', { chunkDelayMs: 30 })));
    const dataDir = mkdtempSync(join(tmpdir(), 'manus-electron-'));
    const app = await electron.launch({
      args: ['out/main/index.js', '--no-sandbox'],
      env: {
        ...process.env,
        MANUS_DATA_DIR: dataDir,
        MANUS_LLM_BASE_URL: llm.baseUrl,
        MANUS_LLM_API_KEY: 'sk-electron-test',
        MANUS_LLM_MODEL: 'fake-model',
      },
    });
    try {
      const appWindow = await app.firstWindow();
      const exposed = await appWindow.evaluate(() => Object.keys(window.manus ?? {}).sort());
      expect(exposed).toEqual(['invoke', 'onCommand', 'onEvent']);
      expect(await appWindow.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe(
        'undefined',
      );
      const input = appWindow.getByTestId('composer-input');
      await input.waitFor({ timeout: UI_TIMEOUT_MS });
      await input.fill('Say hello');
      await input.press('Enter');
      await appWindow
        .locator('.message-assistant strong', { hasText: 'the desktop app' })
        .waitFor({ timeout: UI_TIMEOUT_MS });
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      await appWindow.screenshot({ path: join(ARTIFACTS_DIR, 'electron-app.png') });
    } finally {
      await app.close();
      await llm.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
