import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptRequest } from '../support/fake-llm/index.js';
import { toolCallsAsText } from '../support/fake-llm/text-tool-calls.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { CHROMIUM_PATH } from './support/browser.js';
import { call, finish } from './support/scripts.js';

const UI_TIMEOUT_MS = 20_000;
const RUN_TIMEOUT_MS = 90_000;
/** the scripted server's model: it has no vision, and no vision model is set */
const MODEL = 'fake-model';
const MCP_SERVER = 'ledger';

const e2e = useAppInChromium();
let site: FixtureServer;

beforeAll(async () => {
  site = await startFixtureServer({ '/prices': htmlPage('<h1>Prices</h1><p>Tea 3 €</p>', 'Prices') });
});
afterAll(async () => {
  await site?.close();
});

/** The model writes its first call as text, then opens a page (a screenshot it cannot see), then answers. */
function script(request: ScriptRequest) {
  const toolTurns = (request.body.messages as { role: string }[]).filter((m) => m.role === 'tool').length;
  if (toolTurns === 0) {
    return { text: toolCallsAsText('hermes', [call('python_execute', { code: 'print(6 * 7)' })]) };
  }
  if (toolTurns === 1) return { toolCalls: [call('browser_use', { action: 'go_to_url', url: site.url('/prices') })] };
  return finish('Tea costs 3 €; 6 × 7 = 42.');
}

describe('notices from the core in 中文', () => {
  it('a run that meets a failed MCP server, the local sandbox, a call written as text and an unseen screenshot says each in Chinese, with its values', async () => {
    const watched = await e2e.open(script, {
      config: {
        'sandbox.mode': 'local',
        'browser.executablePath': CHROMIUM_PATH,
        'browser.allowPrivateNetwork': 'true',
        [`mcp.servers.${MCP_SERVER}`]: JSON.stringify({ type: 'stdio', command: '/nonexistent/mcp-ledger' }),
      },
    });
    const { page } = watched;
    await page.evaluate(() => localStorage.setItem('manus.language', 'zh'));
    await page.reload();
    const input = page.getByTestId('composer-input');
    await input.waitFor({ timeout: UI_TIMEOUT_MS });
    await input.fill('茶多少钱？顺便算一下 6 × 7。');
    await input.press('Enter');
    await expect
      .poll(() => page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
      .toBe('finished');

    const notice = (code: string) => page.locator(`.timeline-scroll .notice[data-code="${code}"]`);
    const expected: Record<string, string[]> = {
      mcp_failed: [`MCP 服务器“${MCP_SERVER}”无法启动：找不到它的命令`],
      local_sandbox: ['沙箱处于本地模式'],
      text_tool_calls: [`${MODEL} 没有通过工具接口调用工具`, '已从它的回复中读出这些调用'],
      image_dropped: [`有 1 张图片没有交给 ${MODEL}`, '尚未设置视觉模型'],
    };
    for (const [code, parts] of Object.entries(expected)) {
      const shown = notice(code).first();
      await shown.waitFor({ timeout: UI_TIMEOUT_MS });
      const text = await shown.innerText();
      for (const part of parts) expect(text, code).toContain(part);
    }
    // none of them reads the core's English
    const all = (await page.locator('.timeline-scroll .notice').allInnerTexts()).join('\n');
    for (const english of [
      'is not available',
      'was not found on PATH',
      'Sandbox mode is',
      'wrote its tool calls as text',
      'were not shown to',
      'cannot see images',
    ]) {
      expect(all).not.toContain(english);
    }
    await page.locator('.message', { hasText: 'Tea costs 3 €' }).waitFor({ timeout: UI_TIMEOUT_MS });
    await watched.screenshot('core-notices-zh');
  });
});
