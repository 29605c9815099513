import ipaddr from 'ipaddr.js';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Looks a host name up as the OS would (every address it has); IP literals come back as themselves. */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

const SETTING_HINT =
  'Pages the agent opens may not reach this computer or its local network; ' +
  'the user can allow it with the setting browser.allowPrivateNetwork.';

/** How a refusal names the common ranges; the rest are named by ipaddr.js's range name. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address (this computer)',
  unspecified: 'an unspecified address (it reaches this computer)',
  private: 'a private-network address',
  uniqueLocal: 'a private-network (unique-local) address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'a broadcast address',
};

export class PrivateAddressError extends Error {
  override readonly name = 'PrivateAddressError';
}

/**
 * The ipaddr.js range of an address that is not public unicast (loopback, private, linkLocal, uniqueLocal,
 * carrierGradeNat, multicast, reserved, ...), or undefined for a public one. IPv4-mapped IPv6 counts as IPv4.
 */
export function nonPublicRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : range;
}

/** A host as a resolver takes it: IPv6 literals without their brackets. */
export function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

export function hostOf(url: URL): string {
  return bareHost(url.hostname);
}

/**
 * Resolves `host` once and returns the address to connect to, or refuses when any of its addresses is not
 * public (a name answering both would let the browser pick the private one). The caller connects to exactly
 * this address, so a second lookup cannot rebind the name to a private one.
 */
export async function pinPublicAddress(host: string, resolve: ResolveHost): Promise<ResolvedAddress> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    throw new Error(`Could not resolve ${host}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (addresses.length === 0) throw new Error(`Could not resolve ${host}: no address.`);
  for (const { address } of addresses) {
    const range = nonPublicRange(address);
    if (range === undefined) continue;
    const where = address === host ? address : `${host} (${address})`;
    const kind = RANGE_WORDS[range] ?? `not a public address (${range})`;
    throw new PrivateAddressError(`Refused to connect to ${where}: it is ${kind}. ${SETTING_HINT}`);
  }
  return addresses[0]!;
}
