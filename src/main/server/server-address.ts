import { isIP, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

/** Where every server listens unless told otherwise: only this machine can reach it. */
export const LOOPBACK_ADDRESS = '127.0.0.1';

/** A `--host` value: an IP address to listen on, or `localhost`. */
export const ListenAddressSchema = z.string().refine((address) => address === 'localhost' || isIP(address) !== 0, {
  message: 'give an IP address to listen on (127.0.0.1, 0.0.0.0 for every interface, ::1) or localhost',
});

/** True when only this machine can reach `address`. */
export function isLoopback(address: string): boolean {
  if (address === 'localhost') return true;
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'loopback';
}

/** True for 0.0.0.0 and ::, which listen on every interface and name no host. */
export function isUnspecified(address: string): boolean {
  return ipaddr.isValid(address) && ipaddr.process(address).range() === 'unspecified';
}

/** How a Host header or URL names `address`: IPv6 in brackets, in its canonical form. */
export function hostName(address: string): string {
  if (isIP(address) === 6) return `[${ipaddr.IPv6.parse(address).toRFC5952String()}]`;
  return address.toLowerCase();
}

/**
 * The base URL clients use for a server listening on `address`: the first name given with --allow-host (the one
 * other machines know it by), else the address itself, or loopback for 0.0.0.0 and ::.
 */
export function serverUrl(address: string, port: number, allowedHosts: readonly string[] = []): string {
  const named = allowedHosts[0];
  const host = named ? hostName(named) : isUnspecified(address) ? LOOPBACK_ADDRESS : hostName(address);
  return `http://${host}:${port}`;
}

/** Why listening beyond loopback deserves a second thought, or undefined on loopback. */
export function exposureWarning(address: string, command: string): string | undefined {
  if (isLoopback(address)) return undefined;
  return (
    `warning: ${command} listens on ${address}: other machines can reach it. Every request still needs the token, ` +
    'which travels unencrypted over plain HTTP; name the host clients use with --allow-host.'
  );
}

/** Listens on `address:port` (0 picks a free port) and resolves with the port; a taken port says how to pick another. */
export function listenOn(server: Server, address: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') {
        reject(
          Object.assign(new Error(`Port ${port} is already in use.`), {
            code: 'port_in_use',
            hint: `Pick another one with --port ${port + 1} (0 picks a free one).`,
          }),
        );
      } else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, address);
  });
}
