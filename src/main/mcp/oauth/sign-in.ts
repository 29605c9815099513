import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import type { McpServerConfig } from '../mcp-settings.js';
import { remoteTransport } from '../transport.js';
import type { McpCredentialStore } from './credential-store.js';
import { listenForRedirect } from './loopback-redirect.js';
import { McpOAuthProvider } from './oauth-provider.js';
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
}

export type SignInResult =
  | { status: 'signed_in'; expiresAt?: number; scope?: string }
  /** the server answered without asking anyone to sign in */
  | { status: 'not_required' };

/**
 * Signs in to a remote server as the MCP authorization spec describes, the SDK doing the protocol: the server's
 * 401 (and its WWW-Authenticate) leads to its metadata, a client is registered or the configured one used, the
 * authorization page opens in the browser with PKCE, and the code that comes back to the loopback redirect is
 * exchanged for tokens, kept in the credential store. Any earlier tokens are dropped first (a new sign-in).
 */
export async function signInToMcpServer(options: SignInOptions): Promise<SignInResult> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(SIGN_IN_TIMEOUT_MS)]);
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
          options.onWaiting?.(url.href);
          await (options.openBrowser ?? openInBrowser)(url.href);
        },
      },
    });
    await provider.invalidateCredentials('tokens');
    // a client registered for another redirect port would be refused: register again
    if (previous?.redirectPort !== redirect.port) await provider.invalidateCredentials('client');
    const transport = remoteTransport(options.config, provider);
    try {
      await connectOnce(transport);
      return { status: 'not_required' };
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
    }
    await transport.finishAuth(await redirect.code(signal));
    // the tokens work: the server answers with them
    await connectOnce(remoteTransport(options.config, provider));
    const tokens = provider.tokens();
    return { status: 'signed_in', expiresAt: provider.signedIn().expiresAt, scope: tokens?.scope };
  } finally {
    await redirect.close();
  }
}

async function connectOnce(transport: ReturnType<typeof remoteTransport>): Promise<void> {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  try {
    await client.connect(transport);
  } finally {
    await client.close().catch(() => undefined);
  }
}
