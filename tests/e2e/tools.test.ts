import { afterEach, describe, expect, it } from 'vitest';
import type { Script } from '../support/fake-llm/index.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { useAppInChromium } from './support/app-in-chromium.js';
import { CHROMIUM_PATH, type WatchedPage } from './support/browser.js';
import type { ServeOptions } from './support/served-app.js';
import { call, finish, lastToolResult } from './support/scripts.js';
import { fakeEngineRoutes } from '../search/search-fixtures.js';

const RUN_TIMEOUT_MS = 90_000;

const e2e = useAppInChromium();
let site: FixtureServer | undefined;

afterEach(async () => {
  await site?.close();
  site = undefined;
});

/** One tool call, then a final answer. */
function oneCall(name: string, args: unknown, answer: string): Script {
  return (request) =>
    request.index === 0 ? { text: `Using ${name}.`, toolCalls: [call(name, args)] } : finish(answer);
}

async function runTask(script: Script, task: string, options: ServeOptions = {}): Promise<WatchedPage> {
  await e2e.serve(script, options);
  const watched = await e2e.openPage();
  const input = watched.page.getByTestId('composer-input');
  await input.waitFor();
  await input.fill(task);
  await input.press('Enter');
  await expect
    .poll(() => watched.page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
    .toBe('finished');
  return watched;
}

describe('tool cards against manus serve', () => {
  it('opens a python card into its code, output and the matplotlib figure', async () => {
    const code = [
      'import matplotlib.pyplot as plt',
      'fib = [0, 1]',
      'for _ in range(18): fib.append(fib[-1] + fib[-2])',
      "print('first ten:', fib[:10])",
      'plt.plot(fib, marker="o")',
      'plt.title("Fibonacci")',
      'plt.show()',
    ].join('\n');
    const page = await runTask(oneCall('python_execute', { code }, 'The chart is drawn.'), 'Plot Fibonacci numbers');
    const card = page.page.locator('.tool-card[data-tool="python_execute"]');
    expect(await card.getAttribute('class')).toContain('tool-done');
    await card.locator('.tool-card-head').click();
    await card.locator('.tool-output', { hasText: 'first ten: [0, 1, 1, 2, 3, 5, 8, 13, 21, 34]' }).waitFor();
    expect(await card.locator('.code-block code').innerText()).toContain('fib.append');
    const figure = card.locator('.tool-figure img').first();
    await figure.waitFor();
    const size = await figure.evaluate((image: HTMLImageElement) => ({
      width: image.naturalWidth,
      height: image.naturalHeight,
    }));
    expect(size.width).toBeGreaterThan(100);
    expect(size.height).toBeGreaterThan(100);
    expect(await card.locator('.tool-duration').innerText()).toMatch(/\d/);
    await page.screenshot('python-card-with-figure');
  });

  it('shows bash as a terminal and file edits as content and a diff', async () => {
    const steps = [
      call('bash', { command: 'echo "hello from the sandbox" && uname -s' }),
      call('str_replace_editor', {
        command: 'create',
        path: '/workspace/greet.py',
        file_text: 'name = "world"\nprint(f"hello {name}")\n',
      }),
      call('str_replace_editor', {
        command: 'str_replace',
        path: '/workspace/greet.py',
        old_str: 'name = "world"',
        new_str: 'name = "Manus"',
      }),
    ];
    const page = await runTask(
      (request) => (request.index < steps.length ? { toolCalls: [steps[request.index]] } : finish('Edited.')),
      'Make a greeting script',
    );
    const terminal = page.page.locator('.tool-card[data-tool="bash"]');
    await terminal.locator('.tool-card-head').click();
    await terminal.locator('.terminal', { hasText: 'hello from the sandbox' }).waitFor();
    expect(await terminal.locator('.terminal').innerText()).toMatch(/^\$ echo "hello from the sandbox"[\s\S]*Linux/);

    const edits = page.page.locator('.tool-card[data-tool="str_replace_editor"]');
    await edits.nth(0).locator('.tool-card-head').click();
    await edits.nth(0).locator('.code-block', { hasText: 'print(f"hello {name}")' }).waitFor();
    await edits.nth(1).locator('.tool-card-head').click();
    expect(await edits.nth(1).locator('.diff-removed').innerText()).toContain('name = "world"');
    expect(await edits.nth(1).locator('.diff-added').innerText()).toContain('name = "Manus"');
    await edits.nth(1).scrollIntoViewIfNeeded();
    await page.screenshot('bash-terminal-and-file-diff');
  });

  it('shows the latest browser screenshot with its url, and scrubs back to an earlier one', async () => {
    site = await startFixtureServer();
    site.route(
      '/welcome',
      htmlPage('<h1 style="color:#c00;font-size:64px">Fixture page for Manus</h1><a href="/next">next</a>', 'Welcome'),
    );
    site.route('/next', htmlPage('<h1 style="color:#06c;font-size:64px">The second page</h1>', 'Next'));
    const first = site.url('/welcome');
    const second = site.url('/next');
    const visits = [first, second].map((url) => call('browser_use', { action: 'go_to_url', url }));
    const page = await runTask(
      (request) =>
        request.index < visits.length ? { toolCalls: [visits[request.index]] } : finish('Both pages seen.'),
      'Open both pages',
      { config: { 'browser.executablePath': CHROMIUM_PATH, 'browser.allowPrivateNetwork': 'true' } },
    );
    const panel = page.page.getByTestId('browser-panel');
    await panel.waitFor();
    expect(await panel.locator('.browser-url-bar').innerText()).toBe(second);
    expect(await panel.locator('.scrubber-label').innerText()).toContain('Screenshot 2 of 2');
    const width = await panel.locator('.browser-shot').evaluate((image: HTMLImageElement) => image.naturalWidth);
    expect(width).toBeGreaterThan(300);
    await page.screenshot('browser-panel-latest');

    await panel.locator('.scrubber input[type="range"]').fill('0');
    expect(await panel.locator('.browser-url-bar').innerText()).toBe(first);
    expect(await panel.locator('.scrubber-label').innerText()).toContain('Screenshot 1 of 2');
    await page.screenshot('browser-panel-scrubbed');
    await panel.getByRole('button', { name: 'Latest' }).click();
    expect(await panel.locator('.browser-url-bar').innerText()).toBe(second);

    const card = page.page.locator('.tool-card[data-tool="browser_use"]').first();
    await card.locator('.tool-card-head').click();
    await card.locator('.browser-url', { hasText: first }).waitFor();
  });

  it("lists web search hits from the tool's structured result, as links", async () => {
    site = await startFixtureServer();
    for (const [path, route] of Object.entries(fakeEngineRoutes(site.baseUrl))) site.route(path, route);
    const page = await runTask(
      oneCall('web_search', { query: 'fixtures', num_results: 2 }, 'Two hits.'),
      'Search for fixtures',
      { config: { 'search.engines.duckduckgo.baseUrl': site.url('/ddg/html/'), 'search.fallbackEngines': '[]' } },
    );
    const card = page.page.locator('.tool-card[data-tool="web_search"]');
    expect(await card.getAttribute('data-kind')).toBe('search');
    await card.locator('.tool-card-head').click();
    const hits = card.locator('.search-results li');
    await hits.first().waitFor();
    expect(await hits.locator('a').allInnerTexts()).toEqual(['DDG result 1 for fixtures', 'DDG result 2 for fixtures']);
    expect(await hits.first().locator('a').getAttribute('href')).toBe(site.url('/page/1'));
    expect(await hits.first().locator('p').innerText()).toBe('Snippet & text 1');
    await page.screenshot('search-card-results');
  });

  it('asks before a risky tool under the approval policy; a denial goes back to the model', async () => {
    await e2e.serve(
      (request) =>
        request.index === 0
          ? { toolCalls: [call('bash', { command: 'rm -rf /workspace/data' })] }
          : finish(`The tool said: ${lastToolResult(request)}`),
      { config: { 'approval.policy': 'risky' } },
    );
    const watched = await e2e.openPage();
    const input = watched.page.getByTestId('composer-input');
    await input.waitFor();
    await input.fill('Clean the data folder');
    await input.press('Enter');
    const approval = watched.page.locator('.ask-card', { hasText: 'Approve this tool call?' });
    await approval.waitFor({ timeout: RUN_TIMEOUT_MS });
    expect(await approval.locator('.tool-output').innerText()).toContain('rm -rf /workspace/data');
    await watched.screenshot('approval-card');
    await approval.getByRole('button', { name: 'Deny' }).click();
    await expect
      .poll(() => watched.page.getByTestId('session-status').getAttribute('data-status'), { timeout: RUN_TIMEOUT_MS })
      .toBe('finished');
    expect(await approval.locator('.ask-answer').innerText()).toMatch(/denied/i);
    const reply = await watched.page.locator('.message-assistant', { hasText: 'The tool said' }).innerText();
    expect(reply).toMatch(/denied|declined|not approved/i);
    await watched.screenshot('approval-denied');
  });

  it('shows Docker missing as a banner with the fix on the tool card', async () => {
    const page = await runTask(
      oneCall('python_execute', { code: 'print(1)' }, 'Python is not available.'),
      'Run python',
      {
        env: { DOCKER_HOST: 'unix:///nonexistent/docker.sock' },
      },
    );
    const banner = page.page.locator('.tool-card .problem-banner[data-problem="docker_missing"]');
    await banner.waitFor();
    expect(await banner.innerText()).toMatch(/Start Docker|sandbox/i);
    await page.screenshot('docker-missing');
  });
});
