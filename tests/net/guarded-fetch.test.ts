import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PrivateAddressError, type ResolvedAddress } from '../../src/main/net/address-policy.js';
import { connectDirectly, resolveWithSystem, type EgressNetwork } from '../../src/main/net/egress-network.js';
import { createGuardedFetch, RedirectError } from '../../src/main/net/guarded-fetch.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { startLoopbackTarget, type LoopbackTarget } from '../support/loopback-target.js';

/** A public address the test resolver gives `public.test`; the connector delivers it to the fixture site. */
const PUBLIC_ADDRESS = '93.184.215.14';

let site: FixtureServer;
let target: LoopbackTarget;
const names = new Map<string, () => ResolvedAddress[]>();
/** Addresses connected to, as address:port. */
const dialed: string[] = [];

const testNetwork: EgressNetwork = {
  resolve: async (host) => names.get(host)?.() ?? resolveWithSystem(host),
  connect: (address, port) => {
    dialed.push(`${address}:${port}`);
    return address === PUBLIC_ADDRESS
      ? connectDirectly('127.0.0.1', Number(new URL(site.baseUrl).port))
      : connectDirectly(address, port);
  },
};

const publicUrl = (path: string) => `http://public.test:${new URL(site.baseUrl).port}${path}`;
const redirectTo = (location: string) => ({ status: 302, headers: { Location: location } });

beforeAll(async () => {
  target = await startLoopbackTarget();
  site = await startFixtureServer({
    '/article': { contentType: 'text/plain', body: 'public text' },
    '/to-admin': redirectTo(`http://127.0.0.1:${0}/`),
  });
  site.route('/to-admin', redirectTo(`http://127.0.0.1:${target.port}/internal-admin?action=reboot`));
  site.route('/to-mapped', redirectTo(`http://[::ffff:127.0.0.1]:${target.port}/`));
  site.route('/to-compatible', redirectTo(`http://[::127.0.0.1]:${target.port}/`));
  site.route('/to-localhost', redirectTo(`http://localhost:${target.port}/`));
  site.route('/to-public', redirectTo(publicUrl('/article')));
  site.route('/loop', redirectTo(publicUrl('/loop')));
  site.route('/to-file', redirectTo('file:///etc/passwd'));
  names.set('public.test', () => [{ address: PUBLIC_ADDRESS, family: 4 }]);
});

beforeEach(() => {
  target.connections = 0;
  dialed.length = 0;
});

afterAll(async () => {
  await site?.close();
  await target?.close();
});

describe('a fetch the agent causes, under the egress policy', () => {
  const guarded = createGuardedFetch({ allowPrivateNetwork: false, network: testNetwork });

  it('fetches a public page and follows a redirect to another public page', async () => {
    const response = await guarded(publicUrl('/to-public'));
    expect(await response.text()).toBe('public text');
    expect(response.url).toBe(publicUrl('/article'));
  });

  it('refuses a public page redirecting to a loopback admin service, which sees no request', async () => {
    for (const path of ['/to-admin', '/to-mapped', '/to-localhost']) {
      await expect(guarded(publicUrl(path)), path).rejects.toThrow(PrivateAddressError);
    }
    expect(target.connections).toBe(0);
    expect(dialed.every((address) => address.startsWith(PUBLIC_ADDRESS))).toBe(true);
  });

  it('refuses the IPv4-compatible form of 127.0.0.1 (http://[::127.0.0.1]/), naming it loopback', async () => {
    await expect(guarded(publicUrl('/to-compatible'))).rejects.toThrow(
      /Refused to connect to ::7f00:1: it is a loopback address.*browser\.allowPrivateNetwork/,
    );
    expect(dialed).not.toContain(`::7f00:1:${target.port}`);
  });

  it('connects to the address it checked: a name rebinding to loopback after the check is never dialled', async () => {
    let lookups = 0;
    names.set('rebind.test', () => [{ address: lookups++ === 0 ? PUBLIC_ADDRESS : '127.0.0.1', family: 4 }]);
    const response = await guarded(`http://rebind.test:${target.port}/article`);
    await response.body?.cancel();
    expect(lookups).toBe(1);
    expect(dialed).toEqual([`${PUBLIC_ADDRESS}:${target.port}`]);
    expect(target.connections).toBe(0);
  });

  it('fetches only http and https, and at most ten redirects', async () => {
    await expect(guarded(publicUrl('/to-file'))).rejects.toThrow(RedirectError);
    await expect(guarded(publicUrl('/loop'))).rejects.toThrow('More than 10 redirects');
  });

  it('reaches private addresses when browser.allowPrivateNetwork is on', async () => {
    const open = createGuardedFetch({ allowPrivateNetwork: true, network: testNetwork });
    expect(await (await open(publicUrl('/to-admin'))).text()).toContain('router admin');
    expect(target.connections).toBe(1);
  });

  it('reaches the origin the person configured, but not a private address it redirects to', async () => {
    const engine = createGuardedFetch({
      allowPrivateNetwork: false,
      trustedOrigins: [site.baseUrl],
      network: testNetwork,
    });
    expect(await (await engine(site.url('/article'))).text()).toBe('public text');
    await expect(engine(site.url('/to-admin'))).rejects.toThrow(PrivateAddressError);
    expect(target.connections).toBe(0);
  });
});
