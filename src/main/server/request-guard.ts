import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';
import { z } from 'zod';
import { ListenAddressSchema, hostName, isUnspecified } from './server-address.js';

const TOKEN_BYTES = 24;
const MIN_TOKEN_LENGTH = 16;
const DEFAULT_HTTP_PORT = 80;
/** Names a client on this machine uses for a loopback server. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d{1,5}))?$/i;
const DNS_NAME = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/i;

/** A shared secret clients send as `Authorization: Bearer <token>`. */
export const TokenSchema = z
  .string()
  .min(MIN_TOKEN_LENGTH, `a token needs at least ${MIN_TOKEN_LENGTH} characters (leave it out to get a random one)`)
  .regex(/^[\x21-\x7e]+$/, 'a token is printable ASCII without spaces');

/** A name clients reach the server by besides loopback (`--allow-host`): a DNS name or an IP address. */
export const AllowedHostSchema = z
  .string()
  .refine((name) => isIP(name) !== 0 || DNS_NAME.test(name), {
    message: 'a host name (mybox.lan) or an IP address, without a port',
  })
  .transform(hostName);

export const RequestGuardOptionsSchema = z.object({
  /** the address the server listens on; a specific one is a name clients may use */
  address: ListenAddressSchema,
  token: TokenSchema,
  /** more names clients may use in the Host header, when listening beyond loopback */
  allowedHosts: z.array(AllowedHostSchema).default([]),
  /** the server serves a page of its own, whose requests carry the server's origin; otherwise no page may call */
  ownPage: z.boolean().default(false),
  /**
   * pages on this machine (http(s)://localhost, 127.0.0.1 or [::1], any port) may call, with the token still needed:
   * MCP's Streamable HTTP asks servers to accept local clients' Origins and refuse the rest (DNS rebinding)
   */
  loopbackOrigins: z.boolean().default(false),
  /** named in `WWW-Authenticate` */
  realm: z.string().min(1),
});
export type RequestGuardOptions = z.input<typeof RequestGuardOptionsSchema>;

export interface Refusal {
  status: 401 | 403;
  code: 'wrong_host' | 'foreign_origin' | 'unauthorized';
  message: string;
}

export interface RequestGuard {
  /** the names (without port) the Host header may carry, for a library's own host check */
  readonly hostNames: readonly string[];
  /** Refuses a Host that does not name this server (DNS rebinding) and a browser Origin other than its own. */
  checkSender(request: IncomingMessage): Refusal | undefined;
  /** Refuses a missing or wrong token. */
  checkToken(presented: string | null | undefined): Refusal | undefined;
  /** Express: every request from the right sender, carrying the bearer token unless it GETs a public path. */
  middleware(publicPaths?: readonly string[]): (req: Request, res: Response, next: NextFunction) => void;
  respond(response: ServerResponse, refusal: Refusal): void;
  /** Answers a WebSocket upgrade with the refusal and closes the socket. */
  respondToUpgrade(socket: Duplex, refusal: Refusal): void;
}

/** A fresh token for a server started without one. */
export function randomToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

export function bearerToken(request: IncomingMessage): string | undefined {
  return /^Bearer (\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** Equal-length digests, so neither the comparison nor the length gives the token away. */
function sameToken(expected: Buffer, presented: string): boolean {
  return timingSafeEqual(expected, createHash('sha256').update(presented).digest());
}

/** `name` and port of a Host header, the name in canonical form; undefined when it is not a plain host[:port]. */
function parseHost(header: string): { name: string; port: number } | undefined {
  const match = HOST_HEADER.exec(header);
  if (!match) return undefined;
  const name = match[1].startsWith('[') ? match[1].slice(1, -1) : match[1];
  if (match[1].startsWith('[') && isIP(name) !== 6) return undefined;
  return { name: hostName(name), port: match[2] === undefined ? DEFAULT_HTTP_PORT : Number(match[2]) };
}

/** Whether an Origin header names a page on this machine: http(s) on a loopback name, any port. */
function isLoopbackOrigin(origin: string): boolean {
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.includes(url.hostname);
  } catch {
    return false;
  }
}

function origins(names: readonly string[], port: number): string[] {
  return names.map((name) => (port === DEFAULT_HTTP_PORT ? `http://${name}` : `http://${name}:${port}`));
}

/** The one check in front of `manus serve`, `manus a2a` and `manus mcp-server --transport http`. */
export function createRequestGuard(options: RequestGuardOptions): RequestGuard {
  const settings = RequestGuardOptionsSchema.parse(options);
  const expectedDigest = createHash('sha256').update(settings.token).digest();
  const ownAddress = isUnspecified(settings.address) ? [] : [hostName(settings.address)];
  const hostNames = [...new Set([...LOOPBACK_NAMES, ...ownAddress, ...settings.allowedHosts])];

  function checkSender(request: IncomingMessage): Refusal | undefined {
    // the port the request really arrived on: a Host naming another port is another server's name
    const port = request.socket.localPort;
    const host = parseHost(request.headers.host ?? '');
    if (!host || !hostNames.includes(host.name) || host.port !== port) {
      return { status: 403, code: 'wrong_host', message: 'This server does not answer to that Host name.' };
    }
    const origin = request.headers.origin;
    const ownOrigin = settings.ownPage && port !== undefined && origins(hostNames, port).includes(origin ?? '');
    if (origin !== undefined && !ownOrigin && !(settings.loopbackOrigins && isLoopbackOrigin(origin))) {
      return { status: 403, code: 'foreign_origin', message: 'Requests from other web pages are refused.' };
    }
    return undefined;
  }

  function checkToken(presented: string | null | undefined): Refusal | undefined {
    if (presented && sameToken(expectedDigest, presented)) return undefined;
    return { status: 401, code: 'unauthorized', message: 'Missing or wrong token (Authorization: Bearer <token>).' };
  }

  function headersFor(refusal: Refusal, body: string): Record<string, string | number> {
    return {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      ...(refusal.status === 401 ? { 'WWW-Authenticate': `Bearer realm="${settings.realm}"` } : {}),
    };
  }

  function refusalBody(refusal: Refusal): string {
    return JSON.stringify({ ok: false, error: { code: refusal.code, message: refusal.message } });
  }

  function respond(response: ServerResponse, refusal: Refusal): void {
    const body = refusalBody(refusal);
    response.writeHead(refusal.status, headersFor(refusal, body)).end(body);
  }

  return {
    hostNames,
    checkSender,
    checkToken,
    respond,
    middleware: (publicPaths = []) => {
      return (req, res, next) => {
        const isPublic = (req.method === 'GET' || req.method === 'HEAD') && publicPaths.includes(req.path);
        const refusal = checkSender(req) ?? (isPublic ? undefined : checkToken(bearerToken(req)));
        if (refusal) respond(res, refusal);
        else next();
      };
    },
    respondToUpgrade: (socket, refusal) => {
      const body = refusalBody(refusal);
      const head = Object.entries({ ...headersFor(refusal, body), Connection: 'close' })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.end(`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\n${head}\r\n${body}`);
    },
  };
}
