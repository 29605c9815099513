import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../../../shared/settings/mcp-settings.js';
import { remoteTransport, serverFetch, STRICT_OUTBOUND } from '../transport.js';
import type { OutboundFetch } from '../../net/guarded-fetch.js';
import type { McpCredentialStore } from './credential-store.js';
import { listenForRedirect } from './loopback-redirect.js';
import { joinScopes, McpOAuthProvider } from './oauth-provider.js';
import { openInBrowser } from './open-browser.js';

/** how long the person has to finish signing in in the browser */
export const SIGN_IN_TIMEOUT_MS = 5 * 60_000;
const CLIENT_INFO = { name: 'manus-desktop', version: '0.1.0' };

export type RemoteServerConfig = Extract<McpServerConfig, { type: 'sse' | 'http' }>;

export interface SignInOptions {
  server: string;
  config: RemoteServerConfig;
  store: McpCredentialStore;
  signal: AbortSignal;
  /** the authorization page is about to open: show "Waiting for sign-in…" (with the URL, should the browser not open) */
  onWaiting?: (authorizationUrl: string) => void;
  openBrowser?: (url: string) => Promise<void>;
  /** how the sign-in's requests go out (the egress policy with browser.allowPrivateNetwork); strict by default */
  outbound?: OutboundFetch;
}

export type SignInResult =
  | { status: 'signed_in'; expiresAt?: number; scope?: string }
  /** the server answered without asking anyone to sign in */
  | { status: 'not_required' };

/**
 * Signs in to a remote server as the MCP authorization spec describes, the SDK's `auth()` doing the protocol: the
 * server's 401 (and its WWW-Authenticate) leads to its metadata, a client is registered or the configured one
 * used, the authorization page opens in the browser with PKCE, and the code that comes back to the loopback
 * redirect is exchanged for tokens, kept in the credential store. Earlier tokens are dropped first (a new sign-in,
 * which also asks for the scopes a call was refused for).
 */
export async function signInToMcpServer(options: SignInOptions): Promise<SignInResult> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(SIGN_IN_TIMEOUT_MS)]);
  // the server's own origin is the person's; its metadata and authorization server elsewhere pass the egress policy
  const fetchFn = serverFetch(options.config, options.outbound ?? STRICT_OUTBOUND);
  const challenge = await challengeOf(options.config, fetchFn);
  if (!challenge) return { status: 'not_required' };
  const previous = await options.store.read(options.server);
  const state = randomBytes(24).toString('base64url');
  const redirect = await listenForRedirect(
    state,
    previous?.url === options.config.url ? previous.redirectPort : undefined,
  );
  try {
    const provider = await McpOAuthProvider.open({
      server: options.server,
      url: options.config.url,
      settings: options.config.oauth,
      store: options.store,
      signIn: {
        redirectPort: redirect.port,
        state,
        openAuthorization: async (url) => {
          assertWebPage(url);
          options.onWaiting?.(url.href);
          await (options.openBrowser ?? openInBrowser)(url.href);
        },
      },
    });
    // the challenge's scopes, those a call was refused for (step-up), and the configured ones
    const scope = joinScopes(challenge.scope, provider.scopeNeeded(), options.config.oauth.scope);
    await provider.invalidateCredentials('tokens');
    // a client registered for another redirect port, or for fewer scopes, would be refused: register again
    const registeredScope = previous?.client?.scope;
    if (
      previous?.redirectPort !== redirect.port ||
      (scope && typeof registeredScope === 'string' && joinScopes(registeredScope, scope) !== registeredScope)
    ) {
      await provider.invalidateCredentials('client');
    }
    const target = {
      serverUrl: options.config.url,
      resourceMetadataUrl: challenge.resourceMetadataUrl,
      scope,
      fetchFn,
    };
    if ((await auth(provider, target)) === 'REDIRECT') {
      await auth(provider, { ...target, authorizationCode: await redirect.code(signal) });
    }
    await provider.clearScopeNeeded();
    // the tokens work: the server answers with them
    await connectOnce(remoteTransport(options.config, provider, fetchFn));
    return { status: 'signed_in', expiresAt: provider.signedIn().expiresAt, scope: provider.tokens()?.scope };
  } finally {
    await redirect.close();
  }
}

/**
 * What the server says when asked without a token: its 401's WWW-Authenticate (the resource metadata URL
 * and scopes, RFC 9728 §5.1), or nothing when it answers anyway.
 */
async function challengeOf(
  config: RemoteServerConfig,
  fetchFn: FetchLike,
): Promise<{ resourceMetadataUrl?: URL; scope?: string } | undefined> {
  let challenge: { resourceMetadataUrl?: URL; scope?: string } | undefined;
  const watching: FetchLike = async (url, init) => {
    const response = await fetchFn(url, init);
    if (response.status === 401) challenge = extractWWWAuthenticateParams(response);
    return response;
  };
  try {
    await connectOnce(remoteTransport(config, undefined, watching));
    return undefined;
  } catch (error) {
    if (challenge) return challenge;
    throw error;
  }
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The authorization page comes from the server's metadata: only an https page (or http on this machine) is
 * handed to the browser opener, never a file:, javascript: or custom-scheme URL it would open as told.
 */
function assertWebPage(url: URL): void {
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) return;
  throw new Error(`the authorization server's sign-in page is not an https address (${url.protocol}//…); not opened`);
}

async function connectOnce(transport: ReturnType<typeof remoteTransport>): Promise<void> {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  try {
    await client.connect(transport);
  } finally {
    await client.close().catch(() => undefined);
  }
}
