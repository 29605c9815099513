import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
};

export interface FixtureReply {
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  /** an async iterable is streamed chunk by chunk (a slow or endless body); the client going away ends it */
  body?: string | Buffer | AsyncIterable<Buffer>;
}

export interface RecordedRequest {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: string;
}

export type FixtureHandler = (request: RecordedRequest) => FixtureReply | Promise<FixtureReply>;
export type FixtureRoute = FixtureReply | FixtureHandler;

export interface FixtureServer {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  url(path: string): string;
  /** add or replace the reply for an exact pathname */
  route(path: string, reply: FixtureRoute): void;
  /** every request received, oldest first */
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** An HTML page reply; `body` goes inside <body>. */
export function htmlPage(body: string, title = 'Fixture'): FixtureReply {
  return {
    contentType: 'text/html; charset=utf-8',
    body: `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`,
  };
}

export function jsonReply(value: unknown, status = 200): FixtureReply {
  return { status, contentType: 'application/json', body: JSON.stringify(value) };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A file under `folder` for a URL path; paths that climb out of the folder find nothing. */
async function staticFile(folder: string, pathname: string): Promise<FixtureReply | undefined> {
  const relative = normalize(decodeURIComponent(pathname)).replace(/^([/\\])+/, '');
  if (relative.split(sep).includes('..')) return undefined;
  const path = join(folder, relative.endsWith(sep) || relative === '' ? join(relative, 'index.html') : relative);
  try {
    return {
      contentType: CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream',
      body: await readFile(path),
    };
  } catch {
    return undefined;
  }
}

async function answer(
  routes: Map<string, FixtureRoute>,
  staticDir: string | undefined,
  recorded: RecordedRequest,
  response: ServerResponse,
) {
  const route = routes.get(recorded.url.pathname);
  const routed = route ? (typeof route === 'function' ? await route(recorded) : route) : undefined;
  const served = routed ?? (staticDir ? await staticFile(staticDir, recorded.url.pathname) : undefined);
  const reply: FixtureReply = served ?? {
    status: 404,
    contentType: 'text/plain',
    body: `no fixture at ${recorded.url.pathname}`,
  };
  response.writeHead(reply.status ?? 200, {
    'Content-Type': reply.contentType ?? 'text/html; charset=utf-8',
    ...reply.headers,
  });
  const body = reply.body ?? '';
  if (typeof body === 'string' || Buffer.isBuffer(body)) response.end(body);
  else await pipeline(Readable.from(body), response).catch(() => undefined);
}

/**
 * A small page server on 127.0.0.1 (random port) for browser, search and fetch tests: exact-path routes (fixed
 * replies or handlers), else files from `staticDir` when given.
 */
export async function startFixtureServer(
  initialRoutes: Record<string, FixtureRoute> = {},
  options: { staticDir?: string } = {},
): Promise<FixtureServer> {
  const routes = new Map(Object.entries(initialRoutes));
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    void (async () => {
      const recorded: RecordedRequest = {
        method: request.method ?? 'GET',
        url: new URL(request.url ?? '/', 'http://127.0.0.1'),
        headers: request.headers,
        body: await readBody(request),
      };
      requests.push(recorded);
      await answer(routes, options.staticDir, recorded, response);
    })().catch((error: unknown) => {
      response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end(`fixture failed: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    url: (path) => new URL(path, baseUrl).href,
    route: (path, reply) => routes.set(path, reply),
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
