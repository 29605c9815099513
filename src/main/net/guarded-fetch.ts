import { connect as connectTls } from 'node:tls';
import { isIP, type Socket } from 'node:net';
import { Agent, fetch as undiciFetch, Headers, type RequestInit as UndiciRequestInit } from 'undici';
import { bareHost, PrivateAddressError } from './address-policy.js';
import { connectChecked, systemNetwork, type EgressNetwork } from './egress-network.js';

/** Redirects followed for one request; each hop is checked again. */
const MAX_REDIRECTS = 10;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Credentials meant for one origin: not sent on to another one a redirect names. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The egress policy of one kind of request the agent causes. */
export interface OutboundPolicy {
  /** browser.allowPrivateNetwork: loopback, private and link-local addresses may be reached */
  allowPrivateNetwork: boolean;
  /**
   * Origins the person configured themselves (their SearXNG, their MCP server): reachable wherever they are.
   * A redirect or a link from them to another origin is checked like any other.
   */
  trustedOrigins?: readonly string[];
  /** the resolver and connector (tests give names public addresses); the system's, direct, by default */
  network?: Partial<EgressNetwork>;
}

/** `fetch` as the MCP SDK and the search engines call it. */
export type GuardedFetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** A guarded fetch for some trusted origins, under a policy fixed otherwise (one session's, one command's). */
export type OutboundFetch = (trustedOrigins?: readonly string[]) => GuardedFetch;

export class RedirectError extends Error {
  override readonly name = 'RedirectError';
}

function originOf(protocol: string, host: string, port: number): string {
  return new URL(`${protocol}//${host.includes(':') ? `[${host}]` : host}:${port}`).origin;
}

function connectorFor(policy: OutboundPolicy) {
  const network: EgressNetwork = { ...systemNetwork(undefined), ...policy.network };
  const trusted = new Set((policy.trustedOrigins ?? []).map((origin) => new URL(origin).origin));
  return (
    options: { hostname: string; protocol: string; port: string; servername?: string },
    callback: (...args: [null, Socket] | [Error, null]) => void,
  ): void => {
    const host = bareHost(options.hostname);
    const port = Number(options.port || DEFAULT_PORTS[options.protocol] || 80);
    const privateAllowed = policy.allowPrivateNetwork || trusted.has(originOf(options.protocol, host, port));
    connectChecked(network, host, port, privateAllowed).then(
      (socket) => {
        if (options.protocol !== 'https:') return callback(null, socket);
        // TLS over the socket to the checked address, verified against the name that was asked for
        const secure = connectTls({ socket, servername: options.servername ?? (isIP(host) ? undefined : host) });
        secure.once('secureConnect', () => callback(null, secure));
        secure.once('error', (error) => {
          socket.destroy();
          callback(error, null);
        });
      },
      (error: Error) => callback(error, null),
    );
  };
}

/** The request a redirect leads to (RFC 9110 §15.4): 303, and 301/302 after a POST, become a GET without a body. */
function redirectedInit(init: UndiciRequestInit, status: number, from: URL, to: URL): UndiciRequestInit {
  const headers = new Headers(init.headers);
  if (to.origin !== from.origin) for (const name of ORIGIN_BOUND_HEADERS) headers.delete(name);
  const method = (init.method ?? 'GET').toUpperCase();
  if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
    headers.delete('content-type');
    headers.delete('content-length');
    return { ...init, method: method === 'HEAD' ? 'HEAD' : 'GET', body: undefined, headers };
  }
  if (init.body !== undefined && init.body !== null && typeof init.body !== 'string') {
    throw new RedirectError(`${from.host} redirected a request whose body cannot be sent again (${to.href}).`);
  }
  return { ...init, headers };
}

/** The OutboundFetch of browser.allowPrivateNetwork as it is at each use. */
export function outboundFetchWith(allowPrivateNetwork: () => boolean, network?: Partial<EgressNetwork>): OutboundFetch {
  return (trustedOrigins) =>
    createGuardedFetch({
      allowPrivateNetwork: allowPrivateNetwork(),
      ...(trustedOrigins ? { trustedOrigins } : {}),
      ...(network ? { network } : {}),
    });
}

/**
 * A `fetch` under the egress policy: every connection (the first, and each redirect's, followed here one by one)
 * resolves its host once, is refused when the address is not public (unless the policy allows it or the origin is
 * trusted), and goes to exactly the address that was checked. Only http and https are fetched.
 */
export function createGuardedFetch(policy: OutboundPolicy): GuardedFetch {
  const dispatcher = new Agent({ connect: connectorFor(policy) });
  return async (input, init) => {
    let url = new URL(String(input));
    let request = { ...(init as UndiciRequestInit | undefined), dispatcher, redirect: 'manual' } as UndiciRequestInit;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new RedirectError(`Only http and https URLs are fetched, not ${url.protocol} (${url.href}).`);
      }
      let response;
      try {
        response = await undiciFetch(url, request);
      } catch (error) {
        // undici says "fetch failed"; the refusal's own words say why and what setting allows it
        if (error instanceof TypeError && error.cause instanceof PrivateAddressError) throw error.cause;
        throw error;
      }
      const location = response.headers.get('location');
      if (!REDIRECT_STATUSES.has(response.status) || location === null || init?.redirect === 'manual') {
        return response as unknown as Response;
      }
      await response.body?.cancel().catch(() => undefined);
      if (init?.redirect === 'error') throw new RedirectError(`${url.host} answered with a redirect to ${location}.`);
      if (hop === MAX_REDIRECTS) throw new RedirectError(`More than ${MAX_REDIRECTS} redirects from ${url.href}.`);
      const next = new URL(location, url);
      request = redirectedInit(request, response.status, url, next);
      url = next;
    }
  };
}
