import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CoreEventSchema, type CoreEvent } from '../../src/shared/events.js';
import { createCoreApi } from '../../src/main/api/core-api.js';
import { startWebServer, type WebServer } from '../../src/main/server/web-server.js';
import { CONTENT_SECURITY_POLICY } from '../../src/main/server/csp.js';
import { hashSource } from '../../scripts/renderer-build/inline-first-screen.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';

const finish = (text: string) => ({ text, toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] });

let harness: CoreHarness | undefined;
let server: WebServer | undefined;

afterEach(async () => {
  await server?.close();
  await harness?.close();
  server = undefined;
  harness = undefined;
});

function rendererFolder(page = '<!doctype html><title>Manus</title>'): string {
  const folder = mkdtempSync(join(tmpdir(), 'manus-renderer-'));
  mkdirSync(join(folder, 'assets'));
  writeFileSync(join(folder, 'index.html'), page);
  writeFileSync(join(folder, 'assets', 'app.js'), 'console.log(1)');
  return folder;
}

async function serve(script = sequence(finish('Hello over the web.')), page?: string): Promise<WebServer> {
  harness = await startCoreHarness(script);
  const api = createCoreApi({
    sessions: harness.service,
    store: harness.store,
    dataDir: harness.dataDir,
    shell: 'web',
    version: 'test',
    settings: { read: () => harness!.settings, write: () => undefined },
  });
  server = await startWebServer({ api, rendererDir: rendererFolder(page), port: 0 });
  return server;
}

function call(web: WebServer, name: string, body: unknown, token: string | null = web.token) {
  return fetch(`http://127.0.0.1:${web.port}/api/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token !== null ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
}

/** A raw request, so the Host header can be set as a rebinding page would send it. */
function rawGet(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { Host: host } }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function openSocket(url: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('web server', () => {
  it('refuses requests without the token or with a wrong one, and answers with it', async () => {
    const web = await serve();
    expect((await call(web, 'appInfo', {}, null)).status).toBe(401);
    expect((await call(web, 'appInfo', {}, 'not-the-token')).status).toBe(401);
    const reply = await call(web, 'appInfo', {});
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ ok: true, value: { shell: 'web', version: 'test' } });
  });

  it('validates every request with the contract and reports what is wrong', async () => {
    const web = await serve();
    expect(await (await call(web, 'getEvents', { sessionId: 42 })).json()).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
    expect(await (await call(web, 'dropDatabase', {})).json()).toMatchObject({
      ok: false,
      error: { code: 'unknown_request' },
    });
    expect(await (await call(web, 'startTask', { task: '   ' })).json()).toMatchObject({
      ok: false,
      error: { code: 'bad_request' },
    });
  });

  it('serves the renderer with the CSP, never files outside it, and only to its own host name', async () => {
    const web = await serve();
    const page = await fetch(`http://127.0.0.1:${web.port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(await (await fetch(`http://127.0.0.1:${web.port}/assets/app.js`)).text()).toBe('console.log(1)');
    const escape = await rawGet(web.port, '/..%2f..%2f..%2fetc%2fpasswd', `127.0.0.1:${web.port}`);
    expect(escape.body).not.toContain('root:');
    expect((await rawGet(web.port, '/', 'attacker.example:80')).status).toBe(403);
  });

  it('streams the same events over the WebSocket, only with the token', async () => {
    const web = await serve();
    await expect(openSocket(`ws://127.0.0.1:${web.port}/events?token=wrong`)).rejects.toThrow(/401/);
    const socket = await openSocket(`ws://127.0.0.1:${web.port}/events?token=${web.token}`);
    const received: CoreEvent[] = [];
    const finished = new Promise<void>((resolve) =>
      socket.on('message', (frame) => {
        const event = CoreEventSchema.parse(JSON.parse(String(frame)));
        received.push(event);
        if (event.type === 'done') resolve();
      }),
    );
    const started = await (await call(web, 'startTask', { task: 'Say hello' })).json();
    expect(started).toMatchObject({ ok: true });
    await finished;
    socket.close();
    const sessionId = started.value.sessionId as string;
    const stored = await (await call(web, 'getEvents', { sessionId })).json();
    expect(received.map((event) => event.seq)).toEqual(stored.value.map((event: CoreEvent) => event.seq));
    expect(received.at(-1)).toMatchObject({ type: 'done', status: 'finished', result: 'Hello over the web.' });
    const tail = await (await call(web, 'getEvents', { sessionId, afterSeq: received.length - 2 })).json();
    expect(tail.value.map((event: CoreEvent) => event.seq)).toEqual([received.length - 1, received.length]);
  });

  it('reports a port in use with the fix', async () => {
    const web = await serve();
    const api = createCoreApi({
      sessions: harness!.service,
      store: harness!.store,
      dataDir: harness!.dataDir,
      shell: 'web',
      version: 'test',
      settings: { read: () => harness!.settings, write: () => undefined },
    });
    await expect(startWebServer({ api, rendererDir: rendererFolder(), port: web.port })).rejects.toMatchObject({
      code: 'port_in_use',
      hint: expect.stringContaining('--port'),
    });
  });
});

describe('content security policy', () => {
  it('is the same in the meta tag of the page and in the headers', () => {
    const html = readFileSync('src/renderer/index.html', 'utf8');
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1];
    expect(meta).toBe(CONTENT_SECURITY_POLICY);
  });

  it("is sent with a built page as its meta tag declares it: the inline parts' hashes, and nothing looser", async () => {
    const pageWith = (policy: string) =>
      `<!doctype html><meta http-equiv="Content-Security-Policy" content="${policy}"><script>theme()</script>`;
    const hashed = CONTENT_SECURITY_POLICY.replace("script-src 'self'", `script-src 'self' ${hashSource('theme()')}`);
    const web = await serve(undefined, pageWith(hashed));
    const page = await fetch(`http://127.0.0.1:${web.port}/`);
    expect(page.headers.get('content-security-policy')).toBe(hashed);
    // a route of the one-page app is the same page, with the same policy
    const route = await fetch(`http://127.0.0.1:${web.port}/sessions`);
    expect(route.headers.get('content-security-policy')).toBe(hashed);
    await server?.close();
    await harness?.close();

    // a page whose meta tag was edited to let any inline script run is sent with the base policy, which refuses it
    const loosened = CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'");
    const tampered = await serve(undefined, pageWith(loosened));
    const refused = await fetch(`http://127.0.0.1:${tampered.port}/`);
    expect(refused.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });
});
