import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import type { CoreApi } from '../api/core-api.js';
import { CONTENT_SECURITY_POLICY } from './csp.js';
import { serveStatic } from './static-files.js';
import { bearerToken, createRequestGuard, randomToken } from './request-guard.js';
import { LOOPBACK_ADDRESS, listenOn, serverUrl } from './server-address.js';
import { API_PREFIX, EVENTS_PATH, TOKEN_PARAM } from '../../shared/contract/web-transport.js';

const MAX_BODY_BYTES = 20 * 1024 * 1024;
const PING_INTERVAL_MS = 30_000;
/** a client this far behind is dropped rather than buffering without bound; it re-attaches with getEvents */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

export interface WebServerOptions {
  api: CoreApi;
  /** the built renderer (out/renderer) */
  rendererDir: string;
  port: number;
  /** the address to listen on; loopback unless told otherwise */
  host?: string;
  /** more names the page may be reached by (Host header), when listening beyond loopback */
  allowedHosts?: string[];
  /** a fixed token (tests); random otherwise */
  token?: string;
}

export interface WebServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}

/** The UI over HTTP + WebSocket on 127.0.0.1: the same contract as Electron IPC, behind a random token. */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? randomToken();
  const address = options.host ?? LOOPBACK_ADDRESS;
  const guard = createRequestGuard({
    address,
    token,
    allowedHosts: options.allowedHosts,
    ownPage: true,
    realm: 'manus-serve',
  });

  async function handleApi(request: IncomingMessage, response: ServerResponse, name: string): Promise<void> {
    if (request.method !== 'POST') {
      sendJson(response, 405, { ok: false, error: { code: 'method', message: 'Use POST.' } });
      return;
    }
    let payload: unknown;
    try {
      const body = await readBody(request);
      payload = body ? JSON.parse(body) : {};
    } catch (error) {
      sendJson(response, 400, { ok: false, error: { code: 'bad_request', message: (error as Error).message } });
      return;
    }
    sendJson(response, 200, await options.api.invoke(name, payload));
  }

  const server = createServer((request, response) => {
    for (const [header, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(header, value);
    const url = new URL(request.url ?? '/', `http://${LOOPBACK_ADDRESS}`);
    const isApi = url.pathname.startsWith(API_PREFIX);
    // the page and its assets are public: the token arrives in the page's URL and leaves in its requests' headers
    const refusal = guard.checkSender(request) ?? (isApi ? guard.checkToken(bearerToken(request)) : undefined);
    if (refusal) {
      guard.respond(response, refusal);
      return;
    }
    const work = isApi
      ? handleApi(request, response, url.pathname.slice(API_PREFIX.length))
      : request.method === 'GET' || request.method === 'HEAD'
        ? serveStatic(options.rendererDir, url.pathname, response)
        : Promise.resolve(void response.writeHead(405).end());
    work.catch((error: Error) => {
      if (!response.headersSent)
        sendJson(response, 500, { ok: false, error: { code: 'internal', message: error.message } });
      else response.destroy(error);
    });
  });

  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });
  server.on('upgrade', (request, socket, head) => {
    const url = new URL(request.url ?? '/', `http://${LOOPBACK_ADDRESS}`);
    if (url.pathname !== EVENTS_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    // a browser cannot put headers on a WebSocket: the page sends the token in the URL
    const refusal = guard.checkSender(request) ?? guard.checkToken(url.searchParams.get(TOKEN_PARAM));
    if (refusal) {
      guard.respondToUpgrade(socket, refusal);
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws));
  });

  const alive = new WeakSet<WebSocket>();
  sockets.on('connection', (ws: WebSocket) => {
    alive.add(ws);
    ws.on('pong', () => alive.add(ws));
    ws.on('error', () => ws.terminate());
  });

  const unsubscribe = options.api.onEvent((event) => {
    const frame = JSON.stringify(event);
    for (const ws of sockets.clients) {
      if (ws.readyState !== ws.OPEN) continue;
      if (ws.bufferedAmount > MAX_BUFFERED_BYTES) ws.terminate();
      else ws.send(frame);
    }
  });

  const pinger = setInterval(() => {
    for (const ws of sockets.clients) {
      if (!alive.has(ws)) {
        ws.terminate();
        continue;
      }
      alive.delete(ws);
      ws.ping();
    }
  }, PING_INTERVAL_MS);
  pinger.unref();

  const port = await listenOn(server, address, options.port);

  return {
    url: `${serverUrl(address, port, options.allowedHosts)}/?${TOKEN_PARAM}=${token}`,
    port,
    token,
    close: async () => {
      clearInterval(pinger);
      unsubscribe();
      for (const ws of sockets.clients) ws.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
