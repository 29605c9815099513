import ipaddr from 'ipaddr.js';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Looks a host name up as the OS would (every address it has); IP literals come back as themselves. */
export type ResolveHost = (hostname: string) => Promise<ResolvedAddress[]>;

const SETTING_HINT =
  'What the agent opens or fetches (pages, search results, sign-in metadata) may not reach this computer or its ' +
  'local network; the user can allow it with the setting browser.allowPrivateNetwork.';

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
  unassigned: 'not an assigned public address',
  invalid: 'not an address',
};

/** IPv6 global unicast (RFC 4291): an IPv6 address outside it and every named range is not one to connect to. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** NAT64's local-use prefix (RFC 8215): the network picks the prefix length, so the IPv4 inside may sit at any RFC 6052 place. */
const LOCAL_NAT64 = ipaddr.parseCIDR('64:ff9b:1::/48');
/** Where RFC 6052 puts the IPv4 address for prefixes of /48, /56, /64 and /96 (byte 8 is the reserved u-octet). */
const NAT64_IPV4_BYTES = [
  [6, 7, 9, 10],
  [7, 9, 10, 11],
  [9, 10, 11, 12],
  [12, 13, 14, 15],
];

export class PrivateAddressError extends Error {
  override readonly name = 'PrivateAddressError';
}

function ipv4At(bytes: number[], at: number[], invert = false): ipaddr.IPv4 {
  return new ipaddr.IPv4(at.map((index) => (invert ? ~bytes[index]! & 0xff : bytes[index]!)));
}

/**
 * The IPv4 addresses an IPv6 address carries and is delivered by (IPv4-compatible, IPv4-mapped, IPv4-translated,
 * NAT64, 6to4, Teredo's server and client), or undefined for an IPv6 address of its own.
 */
function carriedIPv4s(address: ipaddr.IPv6, range: string): ipaddr.IPv4[] | undefined {
  const bytes = address.toByteArray();
  const last = [12, 13, 14, 15];
  if (bytes.slice(0, 12).every((byte) => byte === 0)) return [ipv4At(bytes, last)];
  switch (range) {
    case 'ipv4Mapped':
    case 'rfc6145':
      return [ipv4At(bytes, last)];
    case 'rfc6052':
      return address.match(LOCAL_NAT64) ? NAT64_IPV4_BYTES.map((at) => ipv4At(bytes, at)) : [ipv4At(bytes, last)];
    case '6to4':
      return [ipv4At(bytes, [2, 3, 4, 5])];
    case 'teredo':
      return [ipv4At(bytes, [4, 5, 6, 7]), ipv4At(bytes, last, true)];
    default:
      return undefined;
  }
}

function ipv4Range(address: ipaddr.IPv4): string | undefined {
  const range = address.range();
  return range === 'unicast' ? undefined : range;
}

/**
 * The range of an address that is not public unicast (loopback, private, linkLocal, uniqueLocal, carrierGradeNat,
 * multicast, reserved, unassigned, invalid, ...), or undefined for a public one. An IPv6 form that carries an IPv4
 * address (::7f00:1, ::ffff:127.0.0.1, NAT64, 6to4, Teredo) is judged by the IPv4 address inside it.
 */
export function nonPublicRange(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return ipv4Range(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'unspecified' || range === 'loopback') return range;
  const carried = carriedIPv4s(v6, range);
  if (carried) return carried.map(ipv4Range).find((inner) => inner !== undefined);
  if (range !== 'unicast') return range;
  return v6.match(GLOBAL_UNICAST) ? undefined : 'unassigned';
}

/** A host as a resolver takes it: IPv6 literals without their brackets. */
export function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

export function hostOf(url: URL): string {
  return bareHost(url.hostname);
}

/** Resolves `host` once: every address it has, or an error naming it. */
async function resolveOnce(host: string, resolve: ResolveHost): Promise<ResolvedAddress[]> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(host);
  } catch (error) {
    throw new Error(`Could not resolve ${host}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  if (addresses.length === 0) throw new Error(`Could not resolve ${host}: no address.`);
  return addresses;
}

/**
 * Resolves `host` once and returns the address to connect to, or refuses when any of its addresses is not
 * public (a name answering both would let the client pick the private one). The caller connects to exactly
 * this address, so a second lookup cannot rebind the name to a private one.
 */
export async function pinPublicAddress(host: string, resolve: ResolveHost): Promise<ResolvedAddress> {
  const addresses = await resolveOnce(host, resolve);
  for (const { address } of addresses) {
    const range = nonPublicRange(address);
    if (range === undefined) continue;
    const where = address === host ? address : `${host} (${address})`;
    const kind = RANGE_WORDS[range] ?? `not a public address (${range})`;
    throw new PrivateAddressError(`Refused to connect to ${where}: it is ${kind}. ${SETTING_HINT}`);
  }
  return addresses[0]!;
}

/** Resolves `host` once and returns the address to connect to, whatever it is (private addresses are allowed). */
export async function pinAnyAddress(host: string, resolve: ResolveHost): Promise<ResolvedAddress> {
  return (await resolveOnce(host, resolve))[0]!;
}
