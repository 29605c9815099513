import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webSearchTool } from '../../src/main/tool/web-search.js';
import { engineOrder, searchWeb } from '../../src/main/search/search-runner.js';
import { SearchSettingsSchema, type SearchEngineName } from '../../src/shared/settings/search-settings.js';
import type { ToolResult } from '../../src/main/tool/tool.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { createToolContext, type TestToolContext } from '../support/tool-context.js';
import { fakeEngineRoutes } from './search-fixtures.js';
import { connectDirectly, resolveWithSystem, type EgressNetwork } from '../../src/main/net/egress-network.js';
import { startLoopbackTarget, type LoopbackTarget } from '../support/loopback-target.js';

let server: FixtureServer;

beforeAll(async () => {
  server = await startFixtureServer();
  for (const [path, route] of Object.entries(fakeEngineRoutes(server.baseUrl))) server.route(path, route);
  server.route('/slow/search', async () => {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    return { body: 'too late' };
  });
});

afterAll(async () => {
  await server?.close();
});

/** Every engine pointed at its fake; `overrides` swaps in e.g. a broken endpoint. */
function engineSettings(
  overrides: Partial<Record<SearchEngineName, { baseUrl?: string; apiKey?: string; cx?: string }>> = {},
) {
  return {
    duckduckgo: { baseUrl: server.url('/ddg/html/') },
    bing: { baseUrl: server.url('/bing/search') },
    baidu: { baseUrl: server.url('/baidu/s') },
    google: { baseUrl: server.url('/google/customsearch/v1'), apiKey: 'g-key', cx: 'g-cx' },
    brave: { baseUrl: server.url('/brave/search'), apiKey: 'b-key' },
    tavily: { baseUrl: server.url('/tavily/search'), apiKey: 't-key' },
    searxng: { baseUrl: server.url('/searx') },
    ...overrides,
  };
}

function searchContext(search: Record<string, unknown>): TestToolContext {
  return createToolContext({ settings: { search: { retryDelayMs: 10, engines: engineSettings(), ...search } } });
}

async function search(ctx: TestToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  return webSearchTool.execute(webSearchTool.parameters.parse(args), ctx);
}

describe('web_search engines', () => {
  const expectations: [SearchEngineName, string, string, string][] = [
    ['duckduckgo', 'DDG result 1 for local news', '/page/1', 'Snippet & text 1'],
    ['bing', 'Bing one (5)', '/page/1', 'First bing snippet'],
    ['baidu', '百度 结果一', '/page/1', '第一个摘要'],
    ['google', 'Google one', '/page/1', 'Google snippet'],
    ['brave', 'Brave one', '/page/1', 'Brave & snippet'],
    ['tavily', 'Tavily local news x5', '/page/2', 'Tavily snippet'],
    ['searxng', 'Searx one', '/page/3', 'Searx snippet'],
  ];
  for (const [engine, title, path, snippet] of expectations) {
    it(`${engine} answers with title, url and snippet`, async () => {
      const result = await search(searchContext({ engine, fallbackEngines: [] }), { query: 'local news' });
      expect(result.error).toBeUndefined();
      expect(result.output).toContain(`from ${engine}:`);
      expect(result.output).toContain(`1. ${title}\n   URL: ${server.url(path)}\n   ${snippet}`);
      expect(result.output).toContain('<untrusted_page_content>');
    });
  }

  it('keeps to num_results and skips ads', async () => {
    const outcome = await searchWeb(
      { query: 'three', numResults: 2 },
      SearchSettingsSchema.parse({ engine: 'duckduckgo', fallbackEngines: [], engines: engineSettings() }),
      { signal: new AbortController().signal },
    );
    expect(outcome.results.map((r) => r.url)).toEqual([server.url('/page/1'), server.url('/page/2')]);
  });
});

describe('web_search fallbacks', () => {
  it('retries a failing engine with backoff, then takes the fallback', async () => {
    const ctx = createToolContext({
      settings: {
        search: {
          engine: 'bing',
          fallbackEngines: ['duckduckgo'],
          retriesPerEngine: 3,
          retryDelayMs: 40,
          engines: engineSettings({ bing: { baseUrl: server.url('/broken/search') } }),
        },
      },
    });
    const before = server.requests.filter((r) => r.url.pathname === '/broken/search').length;
    const result = await search(ctx, { query: 'fallback please' });
    expect(result.output).toContain('from duckduckgo after bing failed');
    expect(result.output).toContain('DDG result 1 for fallback please');
    expect(server.requests.filter((r) => r.url.pathname === '/broken/search').length - before).toBe(3);
    const progress = ctx.events.flatMap((event) => (event.type === 'tool' && event.progress ? [event.progress] : []));
    expect(progress).toContain('bing failed (HTTP 500 from 127.0.0.1:' + new URL(server.baseUrl).port + '), retrying');
  });

  it('moves past an engine answering garbage and one missing its key', async () => {
    const ctx = searchContext({
      engine: 'brave',
      fallbackEngines: ['google', 'searxng'],
      retriesPerEngine: 2,
      engines: engineSettings({ brave: { baseUrl: server.url('/garbage/search'), apiKey: 'b-key' }, google: {} }),
    });
    const result = await search(ctx, { query: 'anything' });
    expect(result.output).toContain('from searxng after brave, google failed');
    const progress = ctx.events.flatMap((event) => (event.type === 'tool' && event.progress ? [event.progress] : []));
    expect(progress.some((line) => line.startsWith('brave failed') && line.includes('did not answer with JSON'))).toBe(
      true,
    );
    expect(progress).toContain('google failed (google needs an API key (apiKey) (Settings → search.engines.google).)');
  });

  it('does not retry an engine that answers with a bot check', async () => {
    server.route('/ddg-captcha/html/', {
      status: 202,
      body: '<div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>',
    });
    const ctx = searchContext({
      engine: 'duckduckgo',
      fallbackEngines: ['bing'],
      retriesPerEngine: 3,
      engines: engineSettings({ duckduckgo: { baseUrl: server.url('/ddg-captcha/html/') } }),
    });
    const result = await search(ctx, { query: 'blocked' });
    expect(result.output).toContain('from bing after duckduckgo failed');
    expect(server.requests.filter((r) => r.url.pathname === '/ddg-captcha/html/')).toHaveLength(1);
    const progress = ctx.events.flatMap((event) => (event.type === 'tool' && event.progress ? [event.progress] : []));
    expect(progress).toContain('duckduckgo failed (DuckDuckGo answered with a bot check (captcha) instead of results)');
  });

  it('names every failure when no engine answers', async () => {
    const ctx = searchContext({
      engine: 'searxng',
      fallbackEngines: ['tavily'],
      retriesPerEngine: 1,
      engines: engineSettings({ searxng: {}, tavily: { baseUrl: server.url('/tavily/search'), apiKey: 'wrong' } }),
    });
    const result = await search(ctx, { query: 'nothing works' });
    expect(result.error).toContain('Every search engine failed');
    expect(result.error).toContain('- searxng (try 1): searxng needs the URL of a SearXNG instance');
    expect(result.error).toContain('- tavily (try 1): HTTP 401');
  });

  it('stops at once when cancelled during a slow engine', async () => {
    const ctx = searchContext({
      engine: 'bing',
      fallbackEngines: ['duckduckgo'],
      engines: engineSettings({ bing: { baseUrl: server.url('/slow/search') } }),
    });
    setTimeout(() => ctx.abort.abort(), 100);
    // the slow engine answers after 5 s: without the cancel the search would fall back and succeed
    const result = await search(ctx, { query: 'slow' });
    expect(result.error).toBe('The search was cancelled.');
  });

  it('gives up on an engine that does not answer within the timeout', async () => {
    const ctx = searchContext({
      engine: 'bing',
      fallbackEngines: ['duckduckgo'],
      retriesPerEngine: 1,
      fetchTimeoutMs: 200,
      engines: engineSettings({ bing: { baseUrl: server.url('/slow/search') } }),
    });
    const result = await search(ctx, { query: 'slow' });
    expect(result.output).toContain('from duckduckgo after bing failed');
  });
});

/** A public address the test resolver gives `public.test`; the connector delivers it to the fixture server. */
const PUBLIC_ADDRESS = '93.184.215.14';

/** The egress policy's network in these tests: `public.test` is a public name for the fixture server. */
const testNetwork: EgressNetwork = {
  resolve: async (host) =>
    host === 'public.test' ? [{ address: PUBLIC_ADDRESS, family: 4 }] : resolveWithSystem(host),
  connect: (address, port) =>
    address === PUBLIC_ADDRESS
      ? connectDirectly('127.0.0.1', Number(new URL(server.url('/')).port))
      : connectDirectly(address, port),
};

function publicUrl(path: string): string {
  return `http://public.test:${new URL(server.baseUrl).port}${path}`;
}

/** A DuckDuckGo results page listing `urls`, served on the fixture server at `path`. */
function resultsListing(path: string, urls: string[]): string {
  server.route(path, {
    contentType: 'text/html',
    body: urls
      .map(
        (url, n) =>
          `<div class="result"><a class="result__a" href="${url}">Result ${n + 1}</a><a class="result__snippet">s</a></div>`,
      )
      .join(''),
  });
  return server.url(path);
}

/** A session searching DuckDuckGo at `listing` (on loopback: the engine the person configured), on the test network. */
function fetchingContext(listing: string, search: Record<string, unknown> = {}, allowPrivateNetwork = false) {
  const ctx = createToolContext({
    settings: {
      search: {
        retryDelayMs: 10,
        engine: 'duckduckgo',
        fallbackEngines: [],
        engines: engineSettings({ duckduckgo: { baseUrl: listing } }),
        ...search,
      },
      browser: { allowPrivateNetwork },
    },
  });
  ctx.useEgressNetwork(testNetwork);
  return ctx;
}

describe('web_search fetch_content', () => {
  it("fetches each result's page as text, within the size limit", async () => {
    const listing = resultsListing('/ddg-public/html/', ['/page/1', '/page/2', '/page/3'].map(publicUrl));
    const ctx = fetchingContext(listing, { maxContentLength: 500 });
    const result = await search(ctx, { query: 'pages', num_results: 3, fetch_content: true });
    const output = result.output ?? '';
    expect(output).toContain('Content:\n# Page one\n\nThe first page has _useful_ facts.');
    expect(output).toMatch(/# Page two\n\n(long text ){10}/);
    expect(output).toMatch(/\[… \d+ more characters cut\]/);
    expect(output).toContain('Content:\nplain text page three');
  });

  it('notes a page that cannot be fetched instead of failing the search', async () => {
    const ctx = fetchingContext(resultsListing('/ddg-dead/html/', [publicUrl('/missing-page')]));
    const result = await search(ctx, { query: 'dead', fetch_content: true });
    expect(result.output).toContain('Content:\n(could not fetch the page: HTTP 404 from public.test');
  });
});

describe('web_search fetch_content under the egress policy (browser.allowPrivateNetwork off)', () => {
  let target: LoopbackTarget;

  beforeAll(async () => {
    target = await startLoopbackTarget();
    const admin = (host: string) => ({
      status: 302,
      headers: { Location: `http://${host}:${target.port}/internal-admin?action=reboot` },
    });
    server.route('/redirects-to-admin', admin('127.0.0.1'));
    server.route('/redirects-to-mapped', admin('[::ffff:127.0.0.1]'));
    server.route('/redirects-to-compatible', admin('[::127.0.0.1]'));
  });

  afterAll(async () => {
    await target?.close();
  });

  const hostileResults = () => [
    `http://127.0.0.1:${target.port}/internal-admin`,
    `http://[::ffff:127.0.0.1]:${target.port}/`,
    publicUrl('/redirects-to-admin'),
    publicUrl('/redirects-to-mapped'),
    publicUrl('/redirects-to-compatible'),
  ];

  it('does not read a loopback admin service named by a hostile result or a redirect; the service sees no request', async () => {
    target.connections = 0;
    // the engine itself is on loopback: the person configured it, so it stays reachable
    const ctx = fetchingContext(resultsListing('/ddg-hostile/html/', hostileResults()));
    const result = await search(ctx, { query: 'admin', num_results: 5, fetch_content: true });
    const output = result.output ?? '';
    expect(result.error).toBeUndefined();
    expect(output).not.toContain('router admin');
    expect(output.match(/could not fetch the page: Refused to connect to [^\n]*loopback address/g)).toHaveLength(5);
    expect(output).toContain('Refused to connect to ::7f00:1: it is a loopback address');
    expect(output).toContain('browser.allowPrivateNetwork');
    expect(target.connections).toBe(0);
  });

  it('reads them when the person allowed private addresses (browser.allowPrivateNetwork on)', async () => {
    target.connections = 0;
    const ctx = fetchingContext(resultsListing('/ddg-allowed/html/', [publicUrl('/redirects-to-admin')]), {}, true);
    const result = await search(ctx, { query: 'admin', fetch_content: true });
    expect(result.output).toContain('router admin');
    expect(target.connections).toBe(1);
  });
});

describe('web_search arguments', () => {
  it('checks its arguments', () => {
    expect(webSearchTool.parameters.safeParse({ query: '  ' }).success).toBe(false);
    expect(webSearchTool.parameters.safeParse({ query: 'x', num_results: 50 }).success).toBe(false);
    expect(webSearchTool.parameters.parse({ query: 'x' })).toEqual({
      query: 'x',
      num_results: 5,
      fetch_content: false,
    });
  });
});

describe('engine order', () => {
  it('is the configured engine, then the fallbacks, without repeats', () => {
    expect(engineOrder({ engine: 'bing', fallbackEngines: ['duckduckgo', 'bing', 'baidu'] })).toEqual([
      'bing',
      'duckduckgo',
      'baidu',
    ]);
  });
});
