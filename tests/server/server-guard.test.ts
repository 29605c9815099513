import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { randomUUID } from 'node:crypto';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { createCoreApi } from '../../src/main/api/core-api.js';
import { startWebServer } from '../../src/main/server/web-server.js';
import { startA2aServer } from '../../src/main/a2a/a2a-server.js';
import { createManusMcpServer } from '../../src/main/mcp/server/manus-mcp-server.js';
import { serveMcpOverHttp } from '../../src/main/mcp/server/serve.js';
import { createToolContext } from '../support/tool-context.js';
import { Store } from '../../src/main/store/store.js';
import { sequence, type Script } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { a2aClient } from '../support/a2a-client.js';
import { canConnect, otherAddressOfThisMachine, rawRequest } from '../support/http-probe.js';

const TOKEN = 'guard-test-token-0123456789';
const WRONG_TOKEN = 'guard-test-token-9876543210';
const finish = (text: string) => ({ text, toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] });

interface Served {
  port: number;
  /** the harness behind the server, when it runs the agent */
  harness?: CoreHarness;
}
interface Placement {
  host?: string;
  allowedHosts?: string[];
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function harness(script: Script = sequence(finish('Done.'))): Promise<CoreHarness> {
  const core = await startCoreHarness(script);
  closers.push(() => core.close());
  return core;
}

function rendererFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'manus-renderer-'));
  mkdirSync(join(folder, 'assets'));
  writeFileSync(join(folder, 'index.html'), '<!doctype html><title>Manus</title>');
  return folder;
}

async function startServe(placement: Placement = {}, script?: Script): Promise<Served> {
  const core = await harness(script);
  const api = createCoreApi({
    sessions: core.service,
    store: core.store,
    dataDir: core.dataDir,
    shell: 'web',
    version: 'test',
    settings: { read: () => core.settings, write: () => undefined },
  });
  const server = await startWebServer({ api, rendererDir: rendererFolder(), port: 0, token: TOKEN, ...placement });
  closers.push(() => server.close());
  return { port: server.port, harness: core };
}

async function startA2a(placement: Placement = {}, script?: Script): Promise<Served> {
  const core = await harness(script);
  if (!(core.store instanceof Store)) throw new Error('the harness store is not the SQLite Store');
  const server = await startA2aServer({
    service: core.service,
    db: core.store.db,
    port: 0,
    token: TOKEN,
    ...placement,
  });
  closers.push(() => server.close());
  return { port: server.port, harness: core };
}

async function startMcp(placement: Placement = {}): Promise<Served> {
  const { session } = createToolContext({
    sessionId: 'guard-test',
    workspace: mkdtempSync(join(tmpdir(), 'manus-mcp-ws-')),
  });
  const server = await serveMcpOverHttp(() => createManusMcpServer({ tools: [], session }), {
    port: 0,
    token: TOKEN,
    ...placement,
  });
  closers.push(() => server.close());
  return { port: server.port };
}

interface Target {
  name: string;
  start(placement?: Placement): Promise<Served>;
  /** a call the server answers 200 when it comes with the token from this machine */
  path: string;
  body: string;
  headers: Record<string, string>;
  /**
   * Origins the server takes a call from (with its token): its own page's; none for A2A; any page on this machine for
   * the MCP server, as the MCP spec's DNS-rebinding rule (and its conformance suite) asks
   */
  ownOrigins(port: number): string[];
}

const TARGETS: Target[] = [
  {
    name: 'manus serve',
    start: startServe,
    path: '/api/appInfo',
    body: '{}',
    headers: { 'Content-Type': 'application/json' },
    ownOrigins: (port) => [`http://127.0.0.1:${port}`, `http://localhost:${port}`],
  },
  {
    name: 'manus a2a',
    start: startA2a,
    path: '/a2a/jsonrpc',
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { id: 'no-such-task' } }),
    headers: { 'Content-Type': 'application/json' },
    ownOrigins: () => [],
  },
  {
    name: 'manus mcp-server --transport http',
    start: startMcp,
    path: '/mcp',
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    }),
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    ownOrigins: (port) => [`http://localhost:${port}`, 'http://127.0.0.1:3000', 'http://[::1]:5173'],
  },
];

describe.each(TARGETS)('$name behind the request guard', (target) => {
  /** The target's call with the token and the server's own Host, with `headers` changing or (undefined) dropping some. */
  function send(port: number, headers: Record<string, string | undefined> = {}, address?: string) {
    const merged: Record<string, string | undefined> = {
      Host: `127.0.0.1:${port}`,
      Authorization: `Bearer ${TOKEN}`,
      ...target.headers,
      ...headers,
    };
    const sent = Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined)) as Record<
      string,
      string
    >;
    return rawRequest({ address, port, method: 'POST', path: target.path, headers: sent, body: target.body });
  }

  it('answers the call with the token from this machine (the control for every refusal below)', async () => {
    const { port } = await target.start();
    expect((await send(port)).status).toBe(200);
    expect((await send(port, { Host: `localhost:${port}` })).status).toBe(200);
  });

  it('refuses a Host header that does not name it (DNS rebinding), token or not', async () => {
    const { port } = await target.start();
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1:${port === 65_535 ? 1 : port + 1}`,
      'evil.example',
    ]) {
      const reply = await send(port, { Host: host });
      expect(reply.status, host).toBe(403);
      expect(JSON.parse(reply.body), host).toMatchObject({ ok: false, error: { code: 'wrong_host' } });
    }
  });

  it('refuses a call a browser makes from another page, token or not', async () => {
    const { port } = await target.start();
    for (const origin of ['http://evil.example', `http://127.0.0.1.evil.example:${port}`, 'null']) {
      const reply = await send(port, { Origin: origin });
      expect(reply.status, origin).toBe(403);
      expect(JSON.parse(reply.body), origin).toMatchObject({ ok: false, error: { code: 'foreign_origin' } });
    }
    const own = target.ownOrigins(port);
    for (const origin of own) expect((await send(port, { Origin: origin })).status, origin).toBe(200);
    if (own.length === 0) {
      // no page it takes calls from: even a page on this machine (another local web app) may not call
      expect((await send(port, { Origin: `http://localhost:${port}` })).status).toBe(403);
      expect((await send(port, { Origin: 'http://127.0.0.1:3000' })).status).toBe(403);
    }
  });

  it('requires Authorization: Bearer <token> and says so on 401', async () => {
    const { port } = await target.start();
    for (const authorization of [undefined, `Bearer ${WRONG_TOKEN}`, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, 'Bearer']) {
      const reply = await send(port, { Authorization: authorization });
      expect(reply.status, authorization).toBe(401);
      expect(reply.headers['www-authenticate'], authorization).toMatch(/^Bearer realm="manus-/);
      expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    }
  });

  it('listens on loopback only unless told otherwise', async () => {
    const { port } = await target.start();
    expect(await canConnect('127.0.0.1', port)).toBe(true);
    expect(await canConnect(otherAddressOfThisMachine(), port)).toBe(false);
  });

  it('told to listen on IPv6 loopback, answers [::1] and still refuses other names', async () => {
    const { port } = await target.start({ host: '::1' });
    expect((await send(port, { Host: `[::1]:${port}` }, '::1')).status).toBe(200);
    expect((await send(port, { Host: `[::2]:${port}` }, '::1')).status).toBe(403);
    expect((await send(port, { Host: `evil.example:${port}` }, '::1')).status).toBe(403);
  });

  it('told to listen beyond loopback, answers only the names it is given and still requires the token', async () => {
    const other = otherAddressOfThisMachine();
    const { port } = await target.start({ host: '0.0.0.0', allowedHosts: [other] });
    expect(await canConnect(other, port)).toBe(true);
    expect((await send(port, { Host: `${other}:${port}` }, other)).status).toBe(200);
    expect((await send(port, { Host: `${other}:${port}`, Authorization: undefined }, other)).status).toBe(401);
    expect((await send(port, { Host: `evil.example:${port}` }, other)).status).toBe(403);
  });
});

function openSocket(url: string, options: WebSocket.ClientOptions = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

describe('manus serve: the page and its event stream', () => {
  it('serves the page shell without the token, but not to another Host', async () => {
    const { port } = await startServe();
    const page = await rawRequest({ port, path: '/', headers: { Host: `127.0.0.1:${port}` } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Manus</title>');
    expect((await rawRequest({ port, path: '/', headers: { Host: `evil.example:${port}` } })).status).toBe(403);
  });

  it('refuses the WebSocket upgrade from another page or Host even with the token; its own page gets events', async () => {
    const { port } = await startServe();
    const url = `ws://127.0.0.1:${port}/events?token=${TOKEN}`;
    await expect(openSocket(url, { origin: 'http://evil.example' })).rejects.toThrow(/403/);
    await expect(openSocket(url, { origin: 'null' })).rejects.toThrow(/403/);
    await expect(openSocket(url, { headers: { Host: `evil.example:${port}` } })).rejects.toThrow(/403/);
    await expect(
      openSocket(url, { headers: { Host: `127.0.0.1.evil.example:${port}` }, origin: `http://127.0.0.1:${port}` }),
    ).rejects.toThrow(/403/);
    await expect(
      openSocket(`ws://127.0.0.1:${port}/events?token=${WRONG_TOKEN}`, { origin: `http://127.0.0.1:${port}` }),
    ).rejects.toThrow(/401/);
    const socket = await openSocket(url, { origin: `http://127.0.0.1:${port}` });
    socket.close();
  });
});

describe('manus a2a: card and client', () => {
  it('publishes the card without the token, declaring the bearer scheme at both well-known paths, v1.0 and v0.3', async () => {
    const { port } = await startA2a();
    for (const path of ['/.well-known/agent-card.json', '/.well-known/agent.json']) {
      const card = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(card.status, path).toBe(200);
      expect(await card.json(), path).toMatchObject({
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        security: [{ bearer: [] }],
      });
    }
    const current = await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`, {
      headers: { 'A2A-Version': '1.0' },
    });
    expect(await current.json()).toMatchObject({
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'bearer' } } },
      securityRequirements: [{ schemes: { bearer: {} } }],
    });
    const parsed = await (await new ClientFactory().createFromUrl(`http://127.0.0.1:${port}`)).getAgentCard();
    expect(parsed.securitySchemes.bearer?.scheme).toMatchObject({
      $case: 'httpAuthSecurityScheme',
      value: { scheme: 'bearer' },
    });
    expect(parsed.securityRequirements).toEqual([{ schemes: { bearer: { list: [] } } }]);
    const rebound = await rawRequest({
      port,
      path: '/.well-known/agent-card.json',
      headers: { Host: `evil.example:${port}` },
    });
    expect(rebound.status).toBe(403);
  });

  it('runs a task for the SDK client that sends the token, and for no other', async () => {
    const { port, harness: core } = await startA2a({}, sequence(finish('Paris.')));
    const message = {
      messageId: randomUUID(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text' as const, value: 'Capital of France?' },
          metadata: undefined,
          filename: '',
          mediaType: 'text/plain',
        },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    };
    const request = { tenant: '', message, configuration: undefined, metadata: undefined };
    const anonymous = await new ClientFactory().createFromUrl(`http://127.0.0.1:${port}`);
    await expect(anonymous.sendMessage(request)).rejects.toThrow(/401|unauthorized/i);
    expect(core?.llm.chatRequests.length).toBe(0);

    const client = await a2aClient(`http://127.0.0.1:${port}`, TOKEN);
    const result = await client.sendMessage(request);
    expect('status' in result && result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const answer = 'artifacts' in result ? result.artifacts[0]?.parts[0]?.content : undefined;
    expect(answer).toEqual({ $case: 'text', value: 'Paris.' });
  });
});
