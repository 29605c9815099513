import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSharedBrowsers } from '../../src/main/browser/browser-launcher.js';
import {
  BrowserNotFoundError,
  findBrowserExecutable,
  knownBrowserLocations,
} from '../../src/main/browser/find-browser-executable.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import type { TestToolContext } from '../support/tool-context.js';
import { fakeEngineRoutes } from '../search/search-fixtures.js';
import { act, actOk, activePage, browserContext, CHROMIUM, startCdpChromium } from './browser-test-kit.js';

let server: FixtureServer;
const contexts: TestToolContext[] = [];

function session(options: Parameters<typeof browserContext>[0] = {}): TestToolContext {
  const ctx = browserContext(options);
  contexts.push(ctx);
  return ctx;
}

beforeAll(async () => {
  server = await startFixtureServer();
  for (const [path, route] of Object.entries(fakeEngineRoutes(server.baseUrl))) server.route(path, route);
});

afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.session.release()));
  await closeSharedBrowsers();
  await server?.close();
});

describe('finding the browser', () => {
  it('takes the first installed browser from the known places', () => {
    expect(findBrowserExecutable({}, ['/nowhere/chrome', CHROMIUM])).toEqual({ executablePath: CHROMIUM });
    expect(findBrowserExecutable({}).executablePath).toBeDefined();
  });

  it('prefers the configured path or channel', () => {
    expect(findBrowserExecutable({ executablePath: CHROMIUM }, [])).toEqual({ executablePath: CHROMIUM });
    expect(findBrowserExecutable({ channel: 'msedge' }, [])).toEqual({ channel: 'msedge' });
  });

  it('names the fix when there is no browser', () => {
    expect(() => findBrowserExecutable({}, ['/nowhere/chrome'])).toThrow(BrowserNotFoundError);
    expect(() => findBrowserExecutable({}, ['/nowhere/chrome'])).toThrow(
      /No Chrome, Chromium or Edge browser was found.*apt install chromium.*browser\.executablePath.*browser\.cdpUrl/,
    );
  });

  it('knows where browsers live on each OS', () => {
    expect(knownBrowserLocations('darwin', { HOME: '/Users/ann' })).toContain(
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    );
    expect(knownBrowserLocations('win32', { PROGRAMFILES: 'C:\\Program Files' })).toContain(
      'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe',
    );
    expect(knownBrowserLocations('linux', { PATH: '/usr/bin' })).toContain('/usr/bin/google-chrome');
  });
});

describe('connecting over CDP', () => {
  let chromium: ChildProcess | undefined;

  afterAll(() => {
    if (chromium?.pid) process.kill(chromium.pid);
  });

  it('drives a browser that is already running', async () => {
    const started = await startCdpChromium();
    chromium = started.chromium;
    const { endpoint } = started;
    server.route('/cdp', { body: '<title>Over CDP</title><button>Remote</button>' });
    const ctx = session({ settings: { browser: { cdpUrl: endpoint, executablePath: undefined } } });
    const state = await actOk(ctx, { action: 'go_to_url', url: server.url('/cdp') });
    expect(state).toContain('Title: Over CDP');
    expect(state).toContain('<button>Remote</button>');
    // letting go of a browser the user runs only disconnects from it
    await ctx.session.release();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(chromium.exitCode).toBeNull();
    expect(chromium.signalCode).toBeNull();
  });

  it('says how to fix an unreachable CDP URL', async () => {
    const ctx = session({ settings: { browser: { cdpUrl: 'http://127.0.0.1:9', launchTimeoutMs: 2_000 } } });
    const result = await act(ctx, { action: 'go_to_url', url: server.url('/cdp') });
    expect(result.error).toContain('Could not connect to the browser at browser.cdpUrl (http://127.0.0.1:9)');
  });
});

describe('launch options', () => {
  let proxy: Server;
  const seen: { auth?: string; agent?: string; url?: string }[] = [];

  beforeAll(async () => {
    // an authenticating HTTP proxy that answers every request itself: no traffic leaves the machine
    proxy = createServer((request, response) => {
      const auth = request.headers['proxy-authorization'];
      seen.push({ auth, agent: request.headers['user-agent'], url: request.url });
      if (auth !== `Basic ${Buffer.from('agent:s3cret').toString('base64')}`) {
        response.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="test"' });
        response.end();
        return;
      }
      response.writeHead(200, { 'Content-Type': 'text/html' });
      response.end(`<title>Proxied</title><p>${request.url}</p>`);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });

  afterAll(() => new Promise<void>((resolve) => proxy.close(() => resolve())));

  it('goes through a proxy with credentials, with extra arguments and the viewport', async () => {
    const { port } = proxy.address() as AddressInfo;
    const ctx = session({
      settings: {
        browser: {
          proxy: { server: `http://127.0.0.1:${port}`, username: 'agent', password: 's3cret' },
          extraArgs: ['--user-agent=ManusTest/1.0'],
          viewport: { width: 640, height: 480 },
        },
      },
    });
    const result = await act(ctx, { action: 'go_to_url', url: 'http://site.invalid/hello' });
    expect(result.error).toBeUndefined();
    expect(result.output).toContain('Title: Proxied');
    expect(seen.some((s) => s.url === 'http://site.invalid/hello' && s.auth && s.agent === 'ManusTest/1.0')).toBe(true);
    const size = await (await activePage(ctx)).evaluate(() => [window.innerWidth, window.innerHeight]);
    expect(size).toEqual([640, 480]);
  });
});

describe('a browser that goes away', () => {
  it('is started again on the next action, saying what was lost', async () => {
    // its own launch configuration, so closing it leaves the other tests' browser alone
    const ctx = session({ settings: { browser: { extraArgs: ['--lang=en-GB'] } } });
    server.route('/again', { body: '<title>Again</title>' });
    await actOk(ctx, { action: 'go_to_url', url: server.url('/again') });
    await (await ctx.session.browser.get()).context.browser()!.close();
    const result = await act(ctx, { action: 'go_to_url', url: server.url('/again') });
    expect(result.output).toContain('The browser had closed, so a new one was started');
    expect(result.output).toContain('Title: Again');
    expect(result.system).toContain('The browser had closed');
  });
});

describe('the web_search browser action', () => {
  it('searches with the configured engine and opens the first result', async () => {
    const ctx = session({
      settings: {
        search: {
          engine: 'duckduckgo',
          fallbackEngines: [],
          engines: { duckduckgo: { baseUrl: server.url('/ddg/html/') } },
        },
      },
    });
    const state = await actOk(ctx, { action: 'web_search', query: 'facts' });
    expect(state).toContain('Search results for "facts" (duckduckgo)');
    expect(state).toContain(`3. DDG result 3 for facts — ${server.url('/page/3')}`);
    expect(state).toContain(`Opened ${server.url('/page/1')} (the first result)`);
    expect(state).toContain('Title: One');
  });
});

describe('process lifetime', () => {
  it('lets the process exit once the last session released its browser', async () => {
    const script = new URL('./fixtures/browse-and-exit.ts', import.meta.url).pathname;
    // the session context reaches the sandbox, whose drivers are `?raw` imports: the raw-text hook loads them
    const rawText = new URL('../../scripts/raw-text/register.mjs', import.meta.url).pathname;
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', rawText, script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill();
        resolve(null);
      }, 30_000);
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    expect(output).toContain('browsed');
    expect(exitCode).toBe(0);
  });
});
