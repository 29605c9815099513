import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FixtureReply {
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
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

async function answer(routes: Map<string, FixtureRoute>, recorded: RecordedRequest, response: ServerResponse) {
  const route = routes.get(recorded.url.pathname);
  const reply: FixtureReply = route
    ? typeof route === 'function'
      ? await route(recorded)
      : route
    : { status: 404, contentType: 'text/plain', body: `no fixture at ${recorded.url.pathname}` };
  response.writeHead(reply.status ?? 200, {
    'Content-Type': reply.contentType ?? 'text/html; charset=utf-8',
    ...reply.headers,
  });
  response.end(reply.body ?? '');
}

/** A small page server on 127.0.0.1 (random port) for browser, search and fetch tests. */
export async function startFixtureServer(initialRoutes: Record<string, FixtureRoute> = {}): Promise<FixtureServer> {
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
      await answer(routes, recorded, response);
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
