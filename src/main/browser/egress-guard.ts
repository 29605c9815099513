import {
  createServer,
  request as httpRequest,
  STATUS_CODES,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { bareHost, hostOf, pinPublicAddress, PrivateAddressError } from '../net/address-policy.js';
import { connectChecked, type EgressNetwork } from '../net/egress-network.js';

/** Refusals kept for the report after an action; a page hammering private addresses cannot grow this forever. */
const MAX_KEPT_REFUSALS = 20;

/** Headers about one hop of the connection, never forwarded (RFC 9110 §7.6.1, plus the proxy's own). */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/**
 * The browser's only way out: an HTTP proxy on loopback that every request of the agent's browser context goes
 * through (pages, redirects, subresources, fetch, WebSockets, forms, popups). It resolves each host once,
 * refuses non-public addresses, and connects to exactly the address it checked.
 */
export interface EgressGuard {
  /** http://127.0.0.1:PORT, the browser context's proxy */
  readonly proxyServer: string;
  /** the credential the guard asks of every request: only the session's own browser is given it */
  readonly username: string;
  readonly password: string;
  /** Throws the refusal a URL would meet, before the browser tries it (for a clear error). */
  checkUrl(url: string): Promise<void>;
  /** Refusal messages since the last call, oldest first. */
  takeRefusals(): string[];
  close(): Promise<void>;
}

function forwardedHeaders(headers: IncomingMessage['headers']): Record<string, string | string[]> {
  const named = new Set(
    String(headers.connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase()),
  );
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_HEADERS.has(name) || named.has(name)) continue;
    kept[name] = value;
  }
  return kept;
}

function refuse(socket: Duplex, status: number, message: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(message);
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${extra.join('')}` +
      `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** `host:port` of a CONNECT request; IPv6 literals come in brackets. */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority);
  if (!match) return undefined;
  return { host: bareHost(match[1]!), port: Number(match[2]) };
}

/** Whether a request carries the guard's credential (Proxy-Authorization: Basic), compared in constant time. */
function hasCredential(request: IncomingMessage, expected: Buffer): boolean {
  const [scheme, token] = String(request.headers['proxy-authorization'] ?? '').split(' ');
  if (scheme?.toLowerCase() !== 'basic' || !token) return false;
  // both sides hashed first: timingSafeEqual needs equal lengths, and the length must not leak either
  const digest = (value: Buffer | string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(Buffer.from(token, 'base64')), digest(expected));
}

const CREDENTIAL_REQUIRED = "This proxy is for one browser session; it needs that session's credential.";
const CREDENTIAL_CHALLENGE = { 'Proxy-Authenticate': 'Basic realm="manus-egress"' };

interface Refusal {
  status: number;
  message: string;
}

export async function startEgressGuard(network: EgressNetwork): Promise<EgressGuard> {
  // any local process can find a loopback port: without this credential it cannot tunnel through the guard
  // (and reach the person's upstream proxy with their Proxy-Authorization)
  const username = 'manus';
  const password = randomBytes(24).toString('base64url');
  const credential = Buffer.from(`${username}:${password}`);
  let refusals: string[] = [];
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // a reset from either side only ends this one connection
    socket.on('error', () => socket.destroy());
  };

  /** The socket to `host:port`, or the status and message to answer the browser with. */
  const open = async (host: string, port: number): Promise<Socket | Refusal> => {
    try {
      const socket = await connectChecked(network, host, port);
      track(socket);
      return socket;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof PrivateAddressError) {
        refusals.push(message);
        refusals = refusals.slice(-MAX_KEPT_REFUSALS);
        return { status: 403, message };
      }
      return { status: 502, message };
    }
  };

  const forwardRequest = async (request: IncomingMessage, response: ServerResponse) => {
    if (!hasCredential(request, credential)) {
      response.writeHead(407, { ...CREDENTIAL_CHALLENGE, 'Content-Type': 'text/plain' }).end(CREDENTIAL_REQUIRED);
      return;
    }
    const target = URL.canParse(request.url ?? '') ? new URL(request.url ?? '') : undefined;
    if (target?.protocol !== 'http:') {
      response.writeHead(400, { 'Content-Type': 'text/plain' }).end('Only absolute http:// requests and CONNECT.');
      return;
    }
    const opened = await open(hostOf(target), Number(target.port || 80));
    if ('status' in opened) {
      response.writeHead(opened.status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(opened.message);
      return;
    }
    const outgoing = httpRequest({
      method: request.method,
      path: `${target.pathname}${target.search}`,
      headers: forwardedHeaders(request.headers),
      // no agent: each request gets the socket to its own checked address, never a pooled one
      createConnection: () => opened,
    });
    // the browser gave up on it (or the guard closed): the connection to the site goes too
    response.on('close', () => opened.destroy());
    outgoing.on('response', (incoming) => {
      response.writeHead(incoming.statusCode ?? 502, incoming.statusMessage, forwardedHeaders(incoming.headers));
      incoming.pipe(response);
    });
    outgoing.on('error', (error) => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { 'Content-Type': 'text/plain' }).end(error.message);
    });
    request.pipe(outgoing);
  };

  const server = createServer((request, response) => void forwardRequest(request, response));
  server.on('connection', track);
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    void (async () => {
      if (!hasCredential(request, credential)) return refuse(client, 407, CREDENTIAL_REQUIRED, CREDENTIAL_CHALLENGE);
      const authority = parseAuthority(request.url ?? '');
      if (!authority) return refuse(client, 400, `Bad CONNECT target ${request.url ?? ''}.`);
      const opened = await open(authority.host, authority.port);
      if ('status' in opened) return refuse(client, opened.status, opened.message);
      if (client.destroyed) return opened.destroy();
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) opened.write(head);
      opened.pipe(client).pipe(opened);
      opened.on('close', () => client.destroy());
      client.on('close', () => opened.destroy());
    })();
  });
  // WebSockets through a proxy use CONNECT; an Upgrade on a plain request has nowhere to go
  server.on('upgrade', (_request: IncomingMessage, client: Duplex) => refuse(client, 400, 'Use CONNECT.'));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    proxyServer: `http://127.0.0.1:${port}`,
    username,
    password,
    async checkUrl(url) {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return;
      await pinPublicAddress(hostOf(parsed), network.resolve);
    },
    takeRefusals() {
      const taken = refusals;
      refusals = [];
      return taken;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
