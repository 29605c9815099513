import type { ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { connect, type AddressInfo, type Server } from 'node:net';
import type { Duplex } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeSharedBrowsers } from '../../src/main/browser/browser-launcher.js';
import { connectDirectly, resolveWithSystem, type EgressNetwork } from '../../src/main/net/egress-network.js';
import type { ResolvedAddress } from '../../src/main/net/address-policy.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startLoopbackTarget, type LoopbackTarget } from '../support/loopback-target.js';
import type { TestToolContext } from '../support/tool-context.js';
import { act, actOk, activePage, browserContext, startCdpChromium, indexOf } from './browser-test-kit.js';

/**
 * A public unicast address the test resolver gives to test names. Nothing is ever sent to it: the test's
 * connector delivers connections for it to the "public" fixture site, as a route to that host would. The
 * guard's address check runs on this real address; only the last hop is redirected.
 */
const PUBLIC_ADDRESS = '93.184.215.14';

let target: LoopbackTarget;
let site: FixtureServer;
/** What the test resolver answers for a name; anything else goes to the system resolver. */
const names = new Map<string, () => ResolvedAddress[]>();
/** Addresses the guard connected to, as address:port. */
const dialed: string[] = [];
const contexts: TestToolContext[] = [];

const testNetwork: EgressNetwork = {
  resolve: async (host) => names.get(host)?.() ?? resolveWithSystem(host),
  connect: (address, port) => {
    dialed.push(`${address}:${port}`);
    return address === PUBLIC_ADDRESS ? connectDirectly('127.0.0.1', sitePort()) : connectDirectly(address, port);
  },
};

function sitePort(): number {
  return Number(new URL(site.baseUrl).port);
}

/** The fixture site under a name that resolves to a public address. */
function publicUrl(path: string): string {
  return `http://public.test:${sitePort()}${path}`;
}

function targetUrl(path: string, host = '127.0.0.1'): string {
  return `http://${host}:${target.port}${path}`;
}

/** A session with the guard on (browser.allowPrivateNetwork false) and the test network. */
function guardedSession(): TestToolContext {
  const ctx = browserContext({ settings: { browser: { allowPrivateNetwork: false } } });
  ctx.useEgressNetwork(testNetwork);
  contexts.push(ctx);
  return ctx;
}

/** Waits until the hostile page has reported each of `what` to its own site (a refused request has no other signal). */
async function pageReported(...what: string[]): Promise<void> {
  await vi.waitFor(
    () => {
      const reported = site.requests.filter((r) => r.url.pathname === '/report').map((r) => r.url.search);
      for (const item of what) expect(reported).toContain(`?${item}`);
    },
    { timeout: 15_000, interval: 100 },
  );
}

const REPORT = `function report(what) { new Image().src = '/report?' + what; }`;

beforeAll(async () => {
  target = await startLoopbackTarget();
  site = await startFixtureServer({
    '/report': { status: 204 },
    '/hello': htmlPage('<p>hello from the web</p>', 'Public page'),
  });
  names.set('public.test', () => [{ address: PUBLIC_ADDRESS, family: 4 }]);
  names.set('sneaky.test', () => [{ address: '127.0.0.1', family: 4 }]);
});

beforeEach(() => {
  target.connections = 0;
  dialed.length = 0;
  site.requests.length = 0;
});

afterAll(async () => {
  await Promise.all(contexts.map((ctx) => ctx.session.release()));
  await closeSharedBrowsers();
  await site?.close();
  await target?.close();
});

describe('the browser may not reach this computer or the local network (browser.allowPrivateNetwork off)', () => {
  it('refuses loopback addresses however they are written, and names that resolve to them', async () => {
    const ctx = guardedSession();
    const attempts: [string, RegExp][] = [
      [targetUrl('/'), /127\.0\.0\.1/],
      [targetUrl('/', 'localhost'), /localhost \((127\.0\.0\.1|::1)\)/],
      [targetUrl('/', '[::1]'), /::1/],
      [targetUrl('/', '0x7f000001'), /127\.0\.0\.1/],
      [targetUrl('/', '2130706433'), /127\.0\.0\.1/],
      [targetUrl('/', 'sneaky.test'), /sneaky\.test \(127\.0\.0\.1\)/],
      [targetUrl('/', '0.0.0.0'), /0\.0\.0\.0/],
      // IPv6 forms of 127.0.0.1: IPv4-mapped, and IPv4-compatible (Chromium writes it ::7f00:1)
      [targetUrl('/', '[::ffff:127.0.0.1]'), /::ffff:7f00:1/],
      [targetUrl('/', '[::127.0.0.1]'), /::7f00:1/],
    ];
    for (const [url, shown] of attempts) {
      const result = await act(ctx, { action: 'go_to_url', url });
      expect(result.error, url).toMatch(
        new RegExp(`Refused to connect to ${shown.source}: it is (a loopback|an unspecified) address`),
      );
      expect(result.error, url).toContain('browser.allowPrivateNetwork');
    }
    const opened = await act(ctx, { action: 'open_tab', url: targetUrl('/secret') });
    expect(opened.error).toContain('Refused to connect to 127.0.0.1');
    expect(target.connections).toBe(0);
  });

  it('opens public pages through the guard, connecting to the address it checked', async () => {
    const ctx = guardedSession();
    const state = await actOk(ctx, { action: 'go_to_url', url: publicUrl('/hello') });
    expect(state).toContain('Title: Public page');
    expect(dialed).toContain(`${PUBLIC_ADDRESS}:${sitePort()}`);
  });

  it('does not follow a redirect to a loopback address', async () => {
    const ctx = guardedSession();
    site.route('/redirect', { status: 302, headers: { Location: targetUrl('/secret') } });
    const result = await act(ctx, { action: 'go_to_url', url: publicUrl('/redirect') });
    expect(result.output ?? result.error).toContain(`The browser blocked a request of this page:`);
    expect(result.output ?? result.error).toContain(
      'Refused to connect to 127.0.0.1: it is a loopback address (this computer).',
    );
    expect(result.output ?? result.error).not.toContain('router admin');
    expect(target.connections).toBe(0);
  });

  it("refuses a page's images, frames, fetches, beacons and WebSockets to loopback, over http and https", async () => {
    const ctx = guardedSession();
    site.route(
      '/subresources',
      htmlPage(
        `<script>${REPORT}</script>
         <img src="${targetUrl('/pixel.png')}" onerror="report('img')">
         <iframe src="${targetUrl('/frame')}" onload="report('iframe')"></iframe>
         <img src="https://127.0.0.1:${target.port}/tls.png" onerror="report('tls')">
         <script>
           fetch('${targetUrl('/api')}', { method: 'POST', mode: 'no-cors', body: 'x' })
             .finally(() => report('fetch'));
           navigator.sendBeacon('${targetUrl('/beacon')}', 'x');
           const socket = new WebSocket('ws://127.0.0.1:${target.port}/ws');
           socket.onclose = () => report('ws');
         </script>`,
        'Subresources',
      ),
    );
    const opened = await actOk(ctx, { action: 'go_to_url', url: publicUrl('/subresources') });
    await pageReported('img', 'iframe', 'tls', 'fetch', 'ws');
    // the refusals are told with the action during which they happened, or the next one
    const next = await actOk(ctx, { action: 'scroll_down' });
    expect(`${opened}\n${next}`).toContain('Refused to connect to 127.0.0.1');
    expect(target.connections).toBe(0);
  });

  it('keeps loopback behind the guard even when Playwright is told to let Chromium skip the proxy for it', async () => {
    const switchName = 'PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK';
    process.env[switchName] = '1';
    try {
      const ctx = guardedSession();
      site.route(
        '/skip-proxy',
        htmlPage(`<script>${REPORT}</script><img src="${targetUrl('/pixel.png')}" onerror="report('skip-img')">`),
      );
      await actOk(ctx, { action: 'go_to_url', url: publicUrl('/skip-proxy') });
      await pageReported('skip-img');
      expect(target.connections).toBe(0);
    } finally {
      delete process.env[switchName];
    }
  });

  it('refuses a form that posts to loopback', async () => {
    const ctx = guardedSession();
    site.route(
      '/form',
      htmlPage(
        `<form method="post" action="${targetUrl('/admin/reset')}"><input name="confirm" value="yes"></form>
         <script>addEventListener('load', () => document.forms[0].submit());</script>`,
        'Form',
      ),
    );
    await actOk(ctx, { action: 'go_to_url', url: publicUrl('/form') });
    const page = await activePage(ctx);
    await page.waitForURL(targetUrl('/admin/reset'));
    expect(await page.locator('body').innerText()).toContain('Refused to connect to 127.0.0.1');
    expect(target.connections).toBe(0);
  });

  it('refuses a link the agent clicks into a new tab, and a window the page opens', async () => {
    const ctx = guardedSession();
    site.route(
      '/links',
      htmlPage(
        `<a href="${targetUrl('/secret')}" target="_blank">Open admin</a>
         <button onclick="window.open('${targetUrl('/popup', '[::1]')}')">Pop up</button>`,
        'Links',
      ),
    );
    const state = await actOk(ctx, { action: 'go_to_url', url: publicUrl('/links') });
    const clicked = await actOk(ctx, { action: 'click_element', index: indexOf(state, 'Open admin') });
    expect(clicked).toContain('Refused to connect to 127.0.0.1');
    await actOk(ctx, { action: 'switch_tab', tab_id: 0 });
    const popped = await actOk(ctx, { action: 'click_element', index: indexOf(state, 'Pop up') });
    expect(popped).toContain('Refused to connect to ::1');
    expect(target.connections).toBe(0);
  });

  it('holds against DNS rebinding: the address checked is the address connected to, and each request is checked', async () => {
    const ctx = guardedSession();
    // public on the first lookup, loopback from then on (a rebinding DNS server with a zero TTL)
    let lookups = 0;
    names.set('rebind.test', () => [{ address: lookups++ === 0 ? PUBLIC_ADDRESS : '127.0.0.1', family: 4 }]);
    // the target's port: once the name points at loopback, the same origin is the local service
    const rebound = (path: string) => `http://rebind.test:${target.port}${path}`;
    site.route(
      '/rebinding',
      htmlPage(
        `<script>${REPORT}
           const first = new Image();
           first.onload = first.onerror = () => {
             report('first');
             fetch('${rebound('/secret')}', { mode: 'no-cors' }).finally(() => report('second'));
           };
           first.src = '${rebound('/first.png')}';
         </script>`,
        'Rebinding',
      ),
    );
    await actOk(ctx, { action: 'go_to_url', url: publicUrl('/rebinding') });
    await pageReported('first', 'second');
    // the first request went where its check said (the public site), the second was refused
    expect(site.requests.map((r) => r.url.pathname)).toContain('/first.png');
    expect(dialed).toContain(`${PUBLIC_ADDRESS}:${target.port}`);
    expect(target.connections).toBe(0);
  });

  it('gives pages no WebRTC, whose UDP (STUN) no HTTP proxy carries, not even through a fresh frame', async () => {
    const ctx = guardedSession();
    const stun = createSocket('udp4');
    let packets = 0;
    stun.on('message', () => packets++);
    await new Promise<void>((resolve) => stun.bind(0, '127.0.0.1', resolve));
    site.route(
      '/webrtc',
      htmlPage(
        `<script>${REPORT}
           try {
             const frame = document.body.appendChild(document.createElement('iframe'));
             const Peer = window.RTCPeerConnection || frame.contentWindow.RTCPeerConnection;
             const peer = new Peer({ iceServers: [{ urls: 'stun:127.0.0.1:${stun.address().port}' }] });
             peer.createDataChannel('x');
             peer.onicegatheringstatechange = () => peer.iceGatheringState === 'complete' && report('gathered');
             peer.createOffer().then((offer) => peer.setLocalDescription(offer));
           } catch {
             report('no-webrtc');
           }
         </script>`,
        'WebRTC',
      ),
    );
    try {
      await actOk(ctx, { action: 'go_to_url', url: publicUrl('/webrtc') });
      const reported = () => site.requests.some((r) => ['?gathered', '?no-webrtc'].includes(r.url.search));
      await vi.waitFor(() => expect(packets > 0 || reported()).toBe(true), { timeout: 60_000, interval: 100 });
      expect(packets).toBe(0);
      expect(site.requests.map((r) => r.url.search)).toContain('?no-webrtc');
    } finally {
      stun.close();
    }
  });

  it('opens the first search result that is not private, and says the ones before it were passed over', async () => {
    const wrapped = (url: string) => `//duckduckgo.com/l/?uddg=${encodeURIComponent(url)}`;
    site.route(
      '/ddg/html/',
      htmlPage(
        [
          ['http://192.168.1.1/admin', 'Router admin'],
          [publicUrl('/hello'), 'Hello page'],
        ]
          .map(
            ([url, title]) => `<div class="result results_links web-result">
              <h2 class="result__title"><a class="result__a" href="${wrapped(url!)}">${title}</a></h2>
              <a class="result__snippet" href="#">about ${title}</a></div>`,
          )
          .join(''),
      ),
    );
    // the search engine is asked by the app, not the browser: its address is the user's choice
    const ctx = browserContext({
      settings: {
        browser: { allowPrivateNetwork: false },
        search: {
          engine: 'duckduckgo',
          fallbackEngines: [],
          engines: { duckduckgo: { baseUrl: site.url('/ddg/html/') } },
        },
      },
    });
    ctx.useEgressNetwork(testNetwork);
    contexts.push(ctx);
    const state = await actOk(ctx, { action: 'web_search', query: 'router' });
    expect(state).toContain('1. Router admin — http://192.168.1.1/admin');
    expect(state).toContain(`Opened ${publicUrl('/hello')} (result 2: the ones before it may not be opened)`);
    expect(state).toContain('Title: Public page');
    expect(dialed.filter((address) => address.startsWith('192.168.'))).toEqual([]);
  });

  it('stops the guard with the session', async () => {
    const ctx = guardedSession();
    await actOk(ctx, { action: 'go_to_url', url: publicUrl('/hello') });
    const guard = (await ctx.session.browser.get()).egressGuard!;
    const port = Number(new URL(guard.proxyServer).port);
    await ctx.session.release();
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  });
});

describe("through the user's proxy (browser.proxy)", () => {
  let upstream: Server;
  /** CONNECT targets the user's proxy was asked for, with their credentials */
  const asked: { target: string; auth: string | undefined }[] = [];
  const proxyAuth = `Basic ${Buffer.from('agent:s3cret').toString('base64')}`;

  beforeAll(async () => {
    // the user's HTTP proxy; the test's internet behind it has one host, the public address, which is the site
    upstream = createHttpServer((_request, response) => response.writeHead(405).end());
    upstream.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
      const target = request.url ?? '';
      asked.push({ target, auth: request.headers['proxy-authorization'] });
      client.on('error', () => undefined);
      if (request.headers['proxy-authorization'] !== proxyAuth) {
        client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
        return;
      }
      const [host, port] = [
        target.slice(0, target.lastIndexOf(':')),
        Number(target.slice(target.lastIndexOf(':') + 1)),
      ];
      const out = host === PUBLIC_ADDRESS ? connect(sitePort(), '127.0.0.1') : connect(port, host);
      out.on('error', () => client.destroy());
      out.on('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        out.write(head);
        out.pipe(client).pipe(out);
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  });

  afterAll(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  function proxiedSession(server: string): TestToolContext {
    const ctx = browserContext({
      settings: { browser: { allowPrivateNetwork: false, proxy: { server, username: 'agent', password: 's3cret' } } },
    });
    ctx.useEgressNetwork({ resolve: testNetwork.resolve });
    contexts.push(ctx);
    return ctx;
  }

  it('asks the proxy for the address it checked, never a name, and never for this computer', async () => {
    const ctx = proxiedSession(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
    site.route(
      '/via-proxy',
      htmlPage(
        `<script>${REPORT}</script><p>through the proxy</p>
         <img src="${targetUrl('/pixel.png')}" onerror="report('img')">`,
        'Via proxy',
      ),
    );
    const state = await actOk(ctx, { action: 'go_to_url', url: publicUrl('/via-proxy') });
    expect(state).toContain('Title: Via proxy');
    await pageReported('img');
    expect(asked).toContainEqual({ target: `${PUBLIC_ADDRESS}:${sitePort()}`, auth: proxyAuth });
    // (Chromium's own background requests, outside the agent's context, use browser.proxy directly)
    const leaked = asked.filter(
      ({ target: to }) => /public\.test|^127\.|^\[::1\]/.test(to) || to.endsWith(`:${target.port}`),
    );
    expect(leaked).toEqual([]);
    expect(target.connections).toBe(0);
  });

  it('says why a SOCKS proxy cannot be used while private addresses are refused', async () => {
    const result = await act(proxiedSession('socks5://127.0.0.1:1080'), { action: 'go_to_url', url: publicUrl('/') });
    expect(result.error).toContain('socks5://127.0.0.1:1080 is not an http:// proxy');
    expect(result.error).toContain('browser.allowPrivateNetwork');
  });
});

describe('a browser the user runs (browser.cdpUrl)', () => {
  let chromium: ChildProcess | undefined;

  afterAll(() => {
    if (chromium?.pid) process.kill(chromium.pid);
  });

  it('has its pages guarded too: the guard is the proxy of the context the agent opens in it', async () => {
    const started = await startCdpChromium();
    chromium = started.chromium;
    const { endpoint } = started;
    const ctx = browserContext({
      settings: { browser: { allowPrivateNetwork: false, cdpUrl: endpoint, executablePath: undefined } },
    });
    ctx.useEgressNetwork(testNetwork);
    contexts.push(ctx);
    site.route(
      '/in-user-browser',
      htmlPage(
        `<script>${REPORT}</script><img src="${targetUrl('/pixel.png')}" onerror="report('cdp-img')">`,
        'Theirs',
      ),
    );
    expect(await actOk(ctx, { action: 'go_to_url', url: publicUrl('/in-user-browser') })).toContain('Title: Theirs');
    await pageReported('cdp-img');
    expect(target.connections).toBe(0);
  });

  it('is refused while private addresses are, since it cannot reach the guard on this machine', async () => {
    const ctx = browserContext({
      settings: { browser: { allowPrivateNetwork: false, cdpUrl: 'http://10.9.9.9:9222' } },
    });
    contexts.push(ctx);
    const result = await act(ctx, { action: 'go_to_url', url: publicUrl('/hello') });
    expect(result.error).toContain('browser.cdpUrl connects to a browser on another machine (10.9.9.9)');
    expect(result.error).toContain('browser.allowPrivateNetwork');
  });
});

describe('browser.allowPrivateNetwork on', () => {
  it('lets the user open local servers', async () => {
    const ctx = browserContext();
    contexts.push(ctx);
    const state = await actOk(ctx, { action: 'go_to_url', url: targetUrl('/') });
    expect(state).toContain('Title: Secret');
    expect(target.connections).toBeGreaterThan(0);
    expect((await ctx.session.browser.get()).egressGuard).toBeUndefined();
  });
});
