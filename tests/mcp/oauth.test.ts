import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSecretBox } from '../../src/main/store/secret-store.js';
import { credentialStoreIn, type McpCredentialStore } from '../../src/main/mcp/oauth/credential-store.js';
import { signInToMcpServer, type RemoteServerConfig } from '../../src/main/mcp/oauth/sign-in.js';
import { openInBrowser } from '../../src/main/mcp/oauth/open-browser.js';
import { McpServerConfigSchema, McpSettingsSchema } from '../../src/shared/settings/mcp-settings.js';
import { McpManager } from '../../src/main/mcp/mcp-manager.js';
import { createToolContext } from '../support/tool-context.js';
import { startTestAuthServer, type TestAuthServer } from './support/oauth-server.js';
import { startLoopbackTarget } from '../support/loopback-target.js';
import { outboundFetchWith } from '../../src/main/net/guarded-fetch.js';

const FOLLOW_BROWSER = join(import.meta.dirname, 'fixtures', 'follow-browser.mjs');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup(options: Parameters<typeof startTestAuthServer>[0] = {}) {
  const auth = await startTestAuthServer(options);
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-oauth-'));
  const store = credentialStoreIn(dataDir, openSecretBox(dataDir));
  cleanups.push(
    () => auth.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  return { auth, dataDir, store };
}

function remote(auth: TestAuthServer, oauth: object = {}): RemoteServerConfig {
  return McpServerConfigSchema.parse({ type: 'http', url: auth.mcpUrl, oauth }) as RemoteServerConfig;
}

/** Signs in with $BROWSER set to the scripted browser, as `manus mcp login` would. */
function signIn(
  server: string,
  config: RemoteServerConfig,
  store: McpCredentialStore,
  signal = new AbortController().signal,
) {
  const waiting: string[] = [];
  const result = signInToMcpServer({
    server,
    config,
    store,
    signal,
    onWaiting: (url) => waiting.push(url),
    openBrowser: (url) => openInBrowser(url, { ...process.env, BROWSER: FOLLOW_BROWSER }),
  });
  return { result, waiting };
}

describe('signing in to a remote MCP server (OAuth, against the SDK auth server pieces)', () => {
  it('follows the 401 challenge to the metadata, registers a client, authorizes with PKCE and the resource, and keeps the tokens sealed', async () => {
    const { auth, dataDir, store } = await setup();
    const { result, waiting } = signIn('remote', remote(auth), store);
    expect(await result).toMatchObject({ status: 'signed_in', scope: 'mcp' });
    expect(waiting).toHaveLength(1);

    expect(auth.registeredClients).toHaveLength(1);
    const client = auth.registeredClients[0];
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client.redirect_uris[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const authorize = auth.authorizeRequests[0];
    expect(authorize.get('response_type')).toBe('code');
    expect(authorize.get('code_challenge_method')).toBe('S256');
    expect(authorize.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(authorize.get('resource')).toBe(auth.mcpUrl);
    expect(authorize.get('scope')).toBe('mcp');
    expect(authorize.get('redirect_uri')).toBe(client.redirect_uris[0]);
    expect(auth.tokenRequests).toEqual([
      { grantType: 'authorization_code', clientAuth: 'none', clientId: client.client_id, resource: auth.mcpUrl },
    ]);

    const stored = await store.read('remote');
    expect(stored?.tokens?.access_token).toMatch(/^at-/);
    expect(stored?.client?.client_id).toBe(client.client_id);
    // on disk only sealed: neither token nor client id can be read from the data folder
    const sealed = readdirSync(join(dataDir, 'mcp-auth')).map((file) =>
      readFileSync(join(dataDir, 'mcp-auth', file), 'utf8'),
    );
    expect(sealed).toHaveLength(1);
    expect(sealed[0]).not.toContain(stored!.tokens!.access_token);
    expect(sealed[0]).not.toContain(client.client_id);
  });

  it('signs in to a server on the HTTP+SSE transport the same way, and its connection uses the tokens', async () => {
    const { auth, store } = await setup();
    const config = McpServerConfigSchema.parse({ type: 'sse', url: auth.sseUrl }) as RemoteServerConfig;
    expect(await signIn('remote', config, store).result).toMatchObject({ status: 'signed_in' });
    expect(auth.authorizeRequests[0].get('resource')).toBe(auth.sseUrl);
    const manager = new McpManager(mkdtempSync(join(tmpdir(), 'manus-oauth-logs-')), { credentials: store });
    cleanups.push(() => manager.close());
    await manager.apply(McpSettingsSchema.parse({ servers: { remote: config } }));
    const whoami = manager.mcpTools().find((tool) => tool.name === 'mcp_remote_whoami')!;
    expect((await whoami.execute({}, createToolContext())).output).toMatch(/^client .+ with scopes mcp$/);
  });

  it('uses a client ID metadata document instead of registering, where the server accepts one', async () => {
    const documentUrl = 'https://manus.example/oauth/client-metadata.json';
    const { auth, store } = await setup({ clientMetadataDocument: documentUrl });
    expect(await signIn('remote', remote(auth, { clientMetadataUrl: documentUrl }), store).result).toMatchObject({
      status: 'signed_in',
    });
    expect(auth.registeredClients).toEqual([]);
    expect(auth.authorizeRequests[0].get('client_id')).toBe(documentUrl);
    expect((await store.read('remote'))?.tokens?.access_token).toMatch(/^at-/);
    expect(auth.tokenRequests).toEqual([
      { grantType: 'authorization_code', clientAuth: 'none', clientId: documentUrl, resource: auth.mcpUrl },
    ]);
  });

  it('finds the authorization server through OpenID discovery when it has no RFC 8414 metadata', async () => {
    const { auth, store } = await setup({ metadata: 'openid' });
    expect(await signIn('remote', remote(auth), store).result).toMatchObject({ status: 'signed_in' });
    expect(auth.tokenRequests.map((request) => request.grantType)).toEqual(['authorization_code']);
  });

  it.each(['client_secret_basic', 'client_secret_post'] as const)(
    'uses a pre-registered client with %s, registering nothing',
    async (authMethod) => {
      const { auth, store } = await setup();
      auth.preRegister({ clientId: 'manus-desktop', clientSecret: 'a-client-secret', authMethod });
      const config = remote(auth, {
        clientId: 'manus-desktop',
        clientSecret: 'a-client-secret',
        tokenEndpointAuthMethod: authMethod,
      });
      expect(await signIn('remote', config, store).result).toMatchObject({ status: 'signed_in' });
      expect(auth.registeredClients).toEqual([]);
      expect(auth.tokenRequests).toEqual([
        { grantType: 'authorization_code', clientAuth: authMethod, clientId: 'manus-desktop', resource: auth.mcpUrl },
      ]);
    },
  );
});

describe('connections to a server behind OAuth', () => {
  async function managerWith(store: McpCredentialStore, config: RemoteServerConfig) {
    const manager = new McpManager(mkdtempSync(join(tmpdir(), 'manus-oauth-logs-')), { credentials: store });
    cleanups.push(() => manager.close());
    await manager.apply(McpSettingsSchema.parse({ servers: { remote: config } }));
    return manager;
  }

  it('use the signed-in tokens, and refresh them when the server stops taking the access token', async () => {
    const { auth, store } = await setup();
    await signIn('remote', remote(auth), store).result;
    const manager = await managerWith(store, remote(auth));
    const status = manager.status('remote');
    expect(status?.status).toBe('connected');
    expect(status?.auth).toMatchObject({ signedIn: true, account: 'ada@example.com', signInRequired: false });
    expect(status?.auth?.expiresAt).toBeGreaterThan(Date.now());
    const whoami = manager.mcpTools().find((tool) => tool.name === 'mcp_remote_whoami')!;
    const clientId = auth.registeredClients[0].client_id;
    expect((await whoami.execute({}, createToolContext())).output).toBe(`client ${clientId} with scopes mcp`);

    const before = (await store.read('remote'))?.tokens;
    auth.expireAccessTokens();
    expect((await whoami.execute({}, createToolContext())).output).toBe(`client ${clientId} with scopes mcp`);
    expect(auth.tokenRequests.map((request) => request.grantType)).toEqual(['authorization_code', 'refresh_token']);
    expect(auth.tokenRequests[1]).toMatchObject({ clientAuth: 'none', resource: auth.mcpUrl });
    const after = (await store.read('remote'))?.tokens;
    expect(after?.access_token).not.toBe(before?.access_token);
    expect(after?.refresh_token).not.toBe(before?.refresh_token);
  });

  it('without a sign-in, report that one is needed, and neither register a client nor open anything', async () => {
    const { auth, store } = await setup();
    const manager = await managerWith(store, remote(auth));
    const status = manager.status('remote');
    expect(status?.status).toBe('failed');
    expect(status?.error).toBe(
      'sign-in needed: run `manus mcp login remote` or use Sign in under Settings → MCP servers',
    );
    expect(status?.auth).toEqual({ signedIn: false, signInRequired: true });
    expect(auth.registeredClients).toEqual([]);
    expect(auth.authorizeRequests).toEqual([]);
  });

  it('step up: a call refused for want of a scope asks for a new sign-in, which asks for that scope too', async () => {
    const { auth, store } = await setup();
    await signIn('remote', remote(auth), store).result;
    const manager = await managerWith(store, remote(auth));
    const admin = () => manager.mcpTools().find((tool) => tool.name === 'mcp_remote_admin_action')!;
    const refused = await admin().execute({}, createToolContext());
    expect(refused.error).toBe(
      'MCP server "remote" needs more permission for "admin_action" (scope "mcp admin"): sign-in needed: run `manus mcp login remote` or use Sign in under Settings → MCP servers.',
    );
    expect(manager.status('remote')?.auth?.signInRequired).toBe(true);

    expect(await signIn('remote', remote(auth), store).result).toMatchObject({
      status: 'signed_in',
      scope: 'mcp admin',
    });
    expect(auth.authorizeRequests.map((request) => request.get('scope'))).toEqual(['mcp', 'mcp admin']);
    expect((await store.read('remote'))?.scopeNeeded).toBeUndefined();
    // the session's next turn reconnects the server that wanted a sign-in
    await manager.apply(McpSettingsSchema.parse({ servers: { remote: remote(auth) } }));
    expect(manager.status('remote')?.auth?.signInRequired).toBe(false);
    expect((await admin().execute({}, createToolContext())).output).toBe('admin action done');
  });

  it("never sends a server's tokens to another URL the same name is moved to", async () => {
    const { auth, store } = await setup();
    await signIn('remote', remote(auth), store).result;
    const token = (await store.read('remote'))?.tokens?.access_token;
    const elsewhere = await startTestAuthServer();
    cleanups.push(() => elsewhere.close());
    const manager = await managerWith(store, remote(elsewhere));
    expect(manager.status('remote')?.auth).toMatchObject({ signedIn: false, signInRequired: true });
    expect(elsewhere.presentedAuthorizations.join('\n')).not.toContain(token);
    expect(elsewhere.tokenRequests).toEqual([]);
  });

  it('after a refresh token stops working too, ask for a sign-in again', async () => {
    const { auth, store } = await setup();
    await signIn('remote', remote(auth), store).result;
    const credentials = (await store.read('remote'))!;
    await store.write('remote', { ...credentials, tokens: { ...credentials.tokens!, refresh_token: 'rt-revoked' } });
    auth.expireAccessTokens();
    const manager = await managerWith(store, remote(auth));
    expect(manager.status('remote')?.auth).toMatchObject({ signInRequired: true });
    expect(auth.authorizeRequests).toHaveLength(1);
  });
});

describe('the authorization page the browser is sent to', () => {
  it.each(['file:///etc/passwd', 'http://192.0.2.1/authorize'])(
    'is refused when the server names %s: nothing is opened',
    async (endpoint) => {
      const { auth, store } = await setup({ authorizationEndpoint: endpoint });
      const opened: string[] = [];
      const result = signInToMcpServer({
        server: 'remote',
        config: remote(auth),
        store,
        signal: new AbortController().signal,
        openBrowser: async (url) => void opened.push(url),
      });
      await expect(result).rejects.toThrow("the authorization server's sign-in page is not an https address");
      expect(opened).toEqual([]);
    },
  );
});

describe('the loopback redirect', () => {
  it('refuses a callback that does not carry the state of the sign-in in progress (a forged or replayed redirect)', async () => {
    const { auth, store } = await setup();
    const forged: number[] = [];
    const result = await signInToMcpServer({
      server: 'remote',
      config: remote(auth),
      store,
      signal: new AbortController().signal,
      openBrowser: async (url) => {
        // another page hits the redirect first, with a code of its own and a guessed state
        const redirect = new URL(new URL(url).searchParams.get('redirect_uri')!);
        redirect.searchParams.set('code', 'code-of-the-attacker');
        redirect.searchParams.set('state', 'guessed');
        forged.push((await fetch(redirect)).status);
        await openInBrowser(url, { ...process.env, BROWSER: FOLLOW_BROWSER });
      },
    });
    expect(forged).toEqual([400]);
    expect(result).toMatchObject({ status: 'signed_in' });
    expect(auth.tokenRequests).toHaveLength(1);
  });

  it('stops waiting when the sign-in is cancelled, and closes the redirect port', async () => {
    const { auth, store } = await setup();
    const abort = new AbortController();
    let redirectUri = '';
    const result = signInToMcpServer({
      server: 'remote',
      config: remote(auth),
      store,
      signal: abort.signal,
      // the person never finishes in the browser
      openBrowser: async (url) => {
        redirectUri = new URL(url).searchParams.get('redirect_uri')!;
        abort.abort(new Error('sign-in cancelled'));
      },
    });
    await expect(result).rejects.toThrow('sign-in cancelled');
    await expect(fetch(redirectUri)).rejects.toThrow();
    expect(auth.tokenRequests).toEqual([]);
    expect((await store.read('remote'))?.tokens).toBeUndefined();
  });
});

describe('the sign-in metadata a server names, under the egress policy (browser.allowPrivateNetwork off)', () => {
  /** A loopback admin service on another port than the MCP server: not the origin the person configured. */
  async function adminService() {
    const target = await startLoopbackTarget();
    cleanups.push(() => target.close());
    return { target, reboot: `http://127.0.0.1:${target.port}/internal-admin?action=reboot` };
  }

  it('does not fetch a resource_metadata on a loopback admin service: the service sees no request', async () => {
    const { target, reboot } = await adminService();
    const { auth, store } = await setup({ challengeMetadataUrl: reboot });
    const { result } = signIn('remote', remote(auth), store);
    // the SDK falls back to the server's own origin, which the person configured: the sign-in still works
    expect(await result).toMatchObject({ status: 'signed_in' });
    expect(target.connections).toBe(0);
  });

  it('does not fetch authorization-server metadata on a loopback admin service, nor register or sign in there', async () => {
    const { target } = await adminService();
    const { auth, store } = await setup({ authorizationServers: [`http://127.0.0.1:${target.port}/`] });
    await expect(signIn('remote', remote(auth), store).result).rejects.toThrow();
    expect(target.connections).toBe(0);
    expect(auth.registeredClients).toEqual([]);
  });

  it('nor does a background connection to the server', async () => {
    const { target, reboot } = await adminService();
    const { auth, store } = await setup({ challengeMetadataUrl: reboot });
    const manager = new McpManager(mkdtempSync(join(tmpdir(), 'manus-oauth-logs-')), { credentials: store });
    cleanups.push(() => manager.close());
    await manager.apply(McpSettingsSchema.parse({ servers: { remote: remote(auth) } }));
    expect(manager.status('remote')?.auth).toMatchObject({ signInRequired: true });
    expect(target.connections).toBe(0);
  });

  it('fetches them when the person allowed private addresses', async () => {
    const { target, reboot } = await adminService();
    const { auth, store } = await setup({ challengeMetadataUrl: reboot });
    const result = signInToMcpServer({
      server: 'remote',
      config: remote(auth),
      store,
      signal: new AbortController().signal,
      outbound: outboundFetchWith(() => true),
      openBrowser: (url) => openInBrowser(url, { ...process.env, BROWSER: FOLLOW_BROWSER }),
    });
    await result.catch(() => undefined);
    expect(target.connections).toBeGreaterThan(0);
  });
});
