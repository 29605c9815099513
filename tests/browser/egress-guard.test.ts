import { request as httpRequest } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEgressGuard, type EgressGuard } from '../../src/main/browser/egress-guard.js';
import { connectDirectly } from '../../src/main/net/egress-network.js';

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
    const request = httpRequest({ host: '127.0.0.1', port: guardPort, path }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject).end();
  });
}

describe('the egress guard as a proxy', () => {
  it('refuses a private CONNECT target with 403 and the reason, reported once', async () => {
    const { reply, socket } = await rawExchange('CONNECT router.test:443 HTTP/1.1\r\nHost: router.test:443\r\n\r\n');
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
    socket.write('CONNECT public.test:443 HTTP/1.1\r\nHost: public.test:443\r\n\r\nhello through');
    await expect.poll(() => received).toContain('hello through');
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    await other.close();
    await closed;
  });

  it('answers requests that are not proxy requests, bad CONNECT targets and unknown names with the reason', async () => {
    expect(await get('/')).toEqual({ status: 400, body: 'Only absolute http:// requests and CONNECT.' });
    const bad = await rawExchange('CONNECT nowhere HTTP/1.1\r\nHost: nowhere\r\n\r\n');
    bad.socket.destroy();
    expect(bad.reply).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    const unknown = await get('http://missing.test/');
    expect(unknown.status).toBe(502);
    expect(unknown.body).toBe('Could not resolve missing.test: getaddrinfo ENOTFOUND missing.test');
  });
});
