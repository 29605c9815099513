import { request as httpRequest } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEgressGuard, type EgressGuard } from '../../src/main/browser/egress-guard.js';
import { connectDirectly, connectThroughProxy } from '../../src/main/net/egress-network.js';

/** A public address the test resolver answers; the connector routes it to the local echo server. */
const PUBLIC_ADDRESS = '93.184.215.14';

let echo: Server;
let guard: EgressGuard;
let guardPort: number;

beforeAll(async () => {
  echo = createServer((socket) => socket.pipe(socket));
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  const echoPort = (echo.address() as AddressInfo).port;
  guard = await startEgressGuard({
    resolve: async (host) => {
      if (host === 'public.test') return [{ address: PUBLIC_ADDRESS, family: 4 }];
      if (host === 'router.test') return [{ address: '192.168.1.1', family: 4 }];
      throw new Error(`getaddrinfo ENOTFOUND ${host}`);
    },
    connect: (address, port) =>
      address === PUBLIC_ADDRESS ? connectDirectly('127.0.0.1', echoPort) : connectDirectly(address, port),
  });
  guardPort = Number(new URL(guard.proxyServer).port);
});

afterAll(async () => {
  await guard?.close();
  await new Promise<void>((resolve) => echo.close(() => resolve()));
});

/** The Proxy-Authorization header line the session's browser sends (it is given the guard's credential). */
function credentialOf(of: EgressGuard): string {
  return `Proxy-Authorization: Basic ${Buffer.from(`${of.username}:${of.password}`).toString('base64')}\r\n`;
}

/** Sends raw bytes to the guard and reads until it answers a head (and, for errors, closes). */
function rawExchange(text: string): Promise<{ reply: string; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect(guardPort, '127.0.0.1', () => socket.write(text));
    let reply = '';
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString();
      if (reply.includes('\r\n\r\n')) resolve({ reply, socket });
    });
    socket.on('error', reject);
  });
}

function get(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const authorization = `Basic ${Buffer.from(`${guard.username}:${guard.password}`).toString('base64')}`;
    const headers = { 'Proxy-Authorization': authorization };
    const request = httpRequest({ host: '127.0.0.1', port: guardPort, path, headers }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject).end();
  });
}

describe('the egress guard as a proxy', () => {
  it('refuses a private CONNECT target with 403 and the reason, reported once', async () => {
    const { reply, socket } = await rawExchange(
      `CONNECT router.test:443 HTTP/1.1\r\nHost: router.test:443\r\n${credentialOf(guard)}\r\n`,
    );
    socket.destroy();
    expect(reply).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(reply).toContain('Refused to connect to router.test (192.168.1.1): it is a private-network address.');
    expect(guard.takeRefusals()).toEqual([expect.stringContaining('router.test (192.168.1.1)')]);
    expect(guard.takeRefusals()).toEqual([]);
  });

  it('tunnels to a public address, and closes the tunnel when it closes', async () => {
    const other = await startEgressGuard({
      resolve: async () => [{ address: PUBLIC_ADDRESS, family: 4 }],
      connect: () => connectDirectly('127.0.0.1', (echo.address() as AddressInfo).port),
    });
    const socket = connect(Number(new URL(other.proxyServer).port), '127.0.0.1');
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.write(
      `CONNECT public.test:443 HTTP/1.1\r\nHost: public.test:443\r\n${credentialOf(other)}\r\nhello through`,
    );
    await expect.poll(() => received).toContain('hello through');
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    await other.close();
    await closed;
  });

  it('answers requests that are not proxy requests, bad CONNECT targets and unknown names with the reason', async () => {
    expect(await get('/')).toEqual({ status: 400, body: 'Only absolute http:// requests and CONNECT.' });
    const bad = await rawExchange(`CONNECT nowhere HTTP/1.1\r\nHost: nowhere\r\n${credentialOf(guard)}\r\n`);
    bad.socket.destroy();
    expect(bad.reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const unknown = await get('http://missing.test/');
    expect(unknown.status).toBe(502);
    expect(unknown.body).toBe('Could not resolve missing.test: getaddrinfo ENOTFOUND missing.test');
  });
});

describe('the egress guard serves only the session that started it', () => {
  /** The person's upstream proxy (browser.proxy, with their credential): it records every CONNECT it receives. */
  let upstream: Server;
  const upstreamSaw: string[] = [];
  let proxied: EgressGuard;

  beforeAll(async () => {
    upstream = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.on('data', (chunk: Buffer) => {
        upstreamSaw.push(chunk.toString('latin1'));
        socket.end('HTTP/1.1 200 Connection Established\r\n\r\n');
      });
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const upstreamPort = (upstream.address() as AddressInfo).port;
    proxied = await startEgressGuard({
      resolve: async () => [{ address: PUBLIC_ADDRESS, family: 4 }],
      connect: connectThroughProxy({
        server: `http://127.0.0.1:${upstreamPort}`,
        username: 'person',
        password: 'secret',
      }),
    });
  });

  afterAll(async () => {
    await proxied?.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  /** What another local process gets when it finds the guard's port and sends `credential` (or none). */
  function tunnelAttempt(credential: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(new URL(proxied.proxyServer).port), '127.0.0.1', () =>
        socket.write(`CONNECT public.test:443 HTTP/1.1\r\nHost: public.test:443\r\n${credential}\r\n`),
      );
      let reply = '';
      socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
      socket.on('close', () => resolve(reply));
      socket.on('error', reject);
      setTimeout(() => socket.end(), 1_000);
    });
  }

  it('refuses a local process without the credential (407), and the upstream proxy receives nothing', async () => {
    upstreamSaw.length = 0;
    const guessed = `Proxy-Authorization: Basic ${Buffer.from(`manus:${'x'.repeat(32)}`).toString('base64')}\r\n`;
    for (const credential of ['', guessed, 'Proxy-Authorization: Bearer abc\r\n']) {
      const reply = await tunnelAttempt(credential);
      expect(reply).toMatch(/^HTTP\/1\.1 407 Proxy Authentication Required\r\n/);
      expect(reply).toContain('Proxy-Authenticate: Basic realm="manus-egress"');
    }
    const plain = await new Promise<number>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port: Number(new URL(proxied.proxyServer).port), path: 'http://public.test/' })
        .on('response', (response) => resolve(response.statusCode ?? 0))
        .on('error', reject)
        .end();
    });
    expect(plain).toBe(407);
    expect(upstreamSaw).toEqual([]);
  });

  it("tunnels for the session's browser, which holds the credential, through the person's upstream proxy", async () => {
    upstreamSaw.length = 0;
    const reply = await tunnelAttempt(credentialOf(proxied));
    expect(reply).toMatch(/^HTTP\/1\.1 200 /);
    expect(upstreamSaw.join('')).toContain(`CONNECT ${PUBLIC_ADDRESS}:443 HTTP/1.1`);
    expect(upstreamSaw.join('')).toContain(
      `Proxy-Authorization: Basic ${Buffer.from('person:secret').toString('base64')}`,
    );
  });

  it('gives each guard a credential of its own', () => {
    expect(proxied.password).not.toBe(guard.password);
    expect(proxied.password.length).toBeGreaterThanOrEqual(32);
  });
});
