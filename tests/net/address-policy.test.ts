import { describe, expect, it } from 'vitest';
import { nonPublicRange, pinPublicAddress, PrivateAddressError } from '../../src/main/net/address-policy.js';

describe('which addresses the agent may reach', () => {
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
      // IPv6 forms that carry an IPv4 address are judged by the IPv4 address inside
      ['::7f00:1', 'loopback'], // IPv4-compatible 127.0.0.1: what Chromium makes of http://[::127.0.0.1]/
      ['::127.0.0.1', 'loopback'],
      ['::a00:1', 'private'],
      ['::ffff:127.0.0.1', 'loopback'], // IPv4-mapped
      ['::ffff:c0a8:101', 'private'],
      ['::ffff:0:7f00:1', 'loopback'], // IPv4-translated (RFC 6145)
      ['64:ff9b::7f00:1', 'loopback'], // NAT64 well-known prefix
      ['64:ff9b::a9fe:a9fe', 'linkLocal'],
      ['2002:7f00:1::', 'loopback'], // 6to4
      ['2002:c0a8:101::1', 'private'],
      ['2001:0:808:808::80ff:fffe', 'loopback'], // Teredo: the client is the inverted last 32 bits (127.0.0.1)
      ['2001:0:7f00:1::f7f7:f7f7', 'loopback'], // Teredo with a loopback server
      // what is neither a named range nor global unicast is refused
      ['100::1', 'discard'],
      ['2001:db8::1', 'reserved'],
      ['fec0::1', 'deprecatedSiteLocal'],
      ['4000::1', 'unassigned'],
      ['::2', 'unspecified'],
      ['not an address', 'invalid'],
    ];
    for (const [address, range] of refused) expect(nonPublicRange(address), address).toBe(range);
    // NAT64's local-use prefix may carry the IPv4 address at any RFC 6052 place: a private one anywhere refuses it
    for (const address of ['64:ff9b:1:7f00:1::', '64:ff9b:1::c0a8:101', '64:ff9b:1::808:808'])
      expect(nonPublicRange(address), address).toBeDefined();
  });

  it('lets public addresses through', () => {
    const publicAddresses = [
      '93.184.215.14',
      '8.8.8.8',
      '2606:4700:4700::1111',
      '::ffff:8.8.8.8',
      '::808:808',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2001:0:808:808::f7f7:f7f7',
    ];
    for (const address of publicAddresses) expect(nonPublicRange(address), address).toBeUndefined();
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
