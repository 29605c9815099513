import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';

export interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request with exactly these headers (Host included), as a rebinding page or a script would send it. */
export function rawRequest(options: {
  address?: string;
  port: number;
  method?: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: options.address ?? '127.0.0.1',
        port: options.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Whether a TCP connection to `address:port` is accepted. */
export function canConnect(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * An address of this machine that is not 127.0.0.1: a network interface's, as another machine would dial, or
 * else 127.0.0.2 (Linux answers all of 127/8, and a server bound to 127.0.0.1 alone does not).
 */
export function otherAddressOfThisMachine(): string {
  const external = Object.values(networkInterfaces())
    .flat()
    .find((entry) => entry && entry.family === 'IPv4' && !entry.internal);
  return external?.address ?? '127.0.0.2';
}
