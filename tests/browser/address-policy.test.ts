import { describe, expect, it } from 'vitest';
import { nonPublicRange, pinPublicAddress, PrivateAddressError } from '../../src/main/browser/address-policy.js';

describe('which addresses the browser may reach', () => {
  it('refuses every range that is not public unicast, in all their spellings', () => {
    const refused: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['::1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['fe80::1', 'linkLocal'],
      ['fd00::2', 'uniqueLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['255.255.255.255', 'broadcast'],
      ['224.0.0.251', 'multicast'],
      ['ff02::1', 'multicast'],
      ['192.0.2.1', 'reserved'],
      // IPv4-mapped IPv6 is the IPv4 address it maps
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:c0a8:101', 'private'],
      // IPv6 forms that carry an IPv4 address inside (NAT64, 6to4)
      ['64:ff9b::7f00:1', 'rfc6052'],
      ['2002:7f00:1::', '6to4'],
      ['not an address', 'invalid'],
    ];
    for (const [address, range] of refused) expect(nonPublicRange(address), address).toBe(range);
  });

  it('lets public addresses through', () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(nonPublicRange(address), address).toBeUndefined();
  });

  it('refuses a name when any of its addresses is private, naming it and the setting', async () => {
    const resolve = async () => [
      { address: '93.184.215.14', family: 4 as const },
      { address: '10.0.0.1', family: 4 as const },
    ];
    const refusal = pinPublicAddress('mixed.test', resolve);
    await expect(refusal).rejects.toBeInstanceOf(PrivateAddressError);
    await expect(refusal).rejects.toThrow(
      /Refused to connect to mixed\.test \(10\.0\.0\.1\): it is a private-network address\..*browser\.allowPrivateNetwork/,
    );
  });

  it('pins the first address of a public name, and says when a name does not resolve', async () => {
    const resolve = async () => [
      { address: '2606:4700:4700::1111', family: 6 as const },
      { address: '1.1.1.1', family: 4 as const },
    ];
    await expect(pinPublicAddress('public.test', resolve)).resolves.toEqual({
      address: '2606:4700:4700::1111',
      family: 6,
    });
    const failing = async () => Promise.reject(new Error('getaddrinfo ENOTFOUND nowhere.test'));
    await expect(pinPublicAddress('nowhere.test', failing)).rejects.toThrow(
      'Could not resolve nowhere.test: getaddrinfo ENOTFOUND nowhere.test',
    );
  });
});
