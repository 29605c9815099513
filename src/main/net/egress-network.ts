import { lookup } from 'node:dns/promises';
import { connect as connectTcp, type Socket } from 'node:net';
import { hostOf, pinAnyAddress, pinPublicAddress, type ResolveHost } from './address-policy.js';
import type { BrowserSettings } from '../../shared/settings/browser-settings.js';

/** A TCP connection that takes this long to open is given up. */
const CONNECT_TIMEOUT_MS = 30_000;

/** Opens a TCP connection to an exact address (never a name: the address was checked). */
export type ConnectAddress = (address: string, port: number) => Promise<Socket>;

/** How requests the agent causes reach the network: passed in, so tests can give a name a public address. */
export interface EgressNetwork {
  resolve: ResolveHost;
  connect: ConnectAddress;
}

export const resolveWithSystem: ResolveHost = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({
    address,
    family: family === 6 ? 6 : 4,
  }));

function openSocket(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp({ host, port, timeout: CONNECT_TIMEOUT_MS });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once('timeout', () => fail(new Error(`no connection to ${host}:${port} after ${CONNECT_TIMEOUT_MS} ms`)));
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

export const connectDirectly: ConnectAddress = (address, port) => openSocket(address, port);

type UpstreamProxy = NonNullable<BrowserSettings['proxy']>;

/**
 * Reads the proxy's response head; bytes after it belong to the tunnel and are put back. Reads in paused mode,
 * so whoever takes the socket next gets every byte from its own 'data' listener.
 */
function readProxyReply(socket: Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const finish = (error?: Error) => {
      socket.off('readable', onReadable).off('error', finish).off('close', onClose);
      if (error) reject(error);
      else resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(head.toString('latin1'))?.[1] ?? 0));
    };
    const onReadable = () => {
      for (let chunk: Buffer | null; (chunk = socket.read() as Buffer | null) !== null;) {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) continue;
        if (head.length > end + 4) socket.unshift(head.subarray(end + 4));
        head = head.subarray(0, end);
        return finish();
      }
    };
    const onClose = () => finish(new Error('the proxy closed the connection'));
    socket.on('readable', onReadable).once('error', finish).once('close', onClose);
  });
}

/**
 * Connections through the user's proxy (browser.proxy): a CONNECT tunnel to the checked address, so the proxy
 * cannot resolve the name again to somewhere else. Only HTTP proxies can be asked for an exact address this way.
 */
export function connectThroughProxy(proxy: UpstreamProxy): ConnectAddress {
  const proxyUrl = new URL(proxy.server.includes('://') ? proxy.server : `http://${proxy.server}`);
  if (proxyUrl.protocol !== 'http:') {
    throw new Error(
      `browser.proxy ${proxy.server} is not an http:// proxy, so the browser cannot check the addresses it opens. ` +
        'Use an HTTP proxy, or let the browser reach private addresses with browser.allowPrivateNetwork.',
    );
  }
  const authorization =
    proxy.username === undefined
      ? ''
      : `Proxy-Authorization: Basic ${Buffer.from(`${proxy.username}:${proxy.password ?? ''}`).toString('base64')}\r\n`;
  return async (address, port) => {
    const socket = await openSocket(hostOf(proxyUrl), Number(proxyUrl.port || 80));
    const target = address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
    socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n${authorization}\r\n`);
    try {
      const status = await readProxyReply(socket);
      if (status !== 200) throw new Error(`the proxy ${proxy.server} answered ${status} to CONNECT ${target}`);
    } catch (error) {
      socket.destroy();
      throw error;
    }
    return socket;
  };
}

/** The network as it is: the system resolver, and either direct connections or the user's proxy. */
export function systemNetwork(proxy: BrowserSettings['proxy']): EgressNetwork {
  return { resolve: resolveWithSystem, connect: proxy ? connectThroughProxy(proxy) : connectDirectly };
}

/**
 * The one way out for a connection the agent causes: resolve the host once, refuse a non-public address (unless
 * private ones are allowed), and connect to exactly the address that was checked, so nothing resolves it again.
 */
export async function connectChecked(
  network: EgressNetwork,
  host: string,
  port: number,
  privateAllowed = false,
): Promise<Socket> {
  const pinned = await (privateAllowed ? pinAnyAddress : pinPublicAddress)(host, network.resolve);
  return network.connect(pinned.address, port);
}
