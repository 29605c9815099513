import { extractWWWAuthenticateParams, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpOAuthSettings } from '../../../shared/settings/mcp-settings.js';
import type { McpCredentials, McpCredentialStore } from './credential-store.js';

const CLIENT_NAME = 'Manus Desktop';
/** what a background connection names as its redirect before any sign-in chose a port (never used to redirect) */
const UNSET_REDIRECT = 'http://127.0.0.1/callback';

/** A remote server wants a sign-in that only the person can do (`manus mcp login`, Sign in in Settings). */
export class SignInRequiredError extends Error {
  constructor(readonly server: string) {
    super(`sign-in needed: run \`manus mcp login ${server}\` or use Sign in under Settings → MCP servers`);
    this.name = 'SignInRequiredError';
  }
}

/** An interactive sign-in in progress: where the browser comes back, and how the authorization page is opened. */
export interface SignInSession {
  redirectPort: number;
  state: string;
  openAuthorization(url: URL): Promise<void>;
}

export interface McpOAuthProviderOptions {
  server: string;
  url: string;
  settings: McpOAuthSettings;
  store: McpCredentialStore;
  /** absent for background connections: they use and refresh tokens but never start a sign-in */
  signIn?: SignInSession;
}

export function loopbackRedirectUrl(port: number): string {
  return `http://127.0.0.1:${port}/callback`;
}

/**
 * The SDK's OAuth client hooks over our credential store: discovery, registration, PKCE, the `resource`
 * parameter, refresh and step-up all happen in the SDK's `auth()`; this only keeps what it hands back.
 */
export class McpOAuthProvider implements OAuthClientProvider {
  private verifier?: string;

  private constructor(
    private readonly options: McpOAuthProviderOptions,
    private credentials: McpCredentials,
  ) {}

  /** Credentials issued for another URL of the same name are not offered to this one. */
  static async open(options: McpOAuthProviderOptions): Promise<McpOAuthProvider> {
    const stored = await options.store.read(options.server);
    return new McpOAuthProvider(options, stored?.url === options.url ? stored : { url: options.url });
  }

  get redirectUrl(): string {
    const port = this.options.signIn?.redirectPort ?? this.credentials.redirectPort;
    return port ? loopbackRedirectUrl(port) : UNSET_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.settings.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { settings } = this.options;
    return {
      client_name: CLIENT_NAME,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // a registered client of ours is public (RFC 8252): PKCE protects the code, there is no secret to keep
      token_endpoint_auth_method: 'none',
      ...(settings.scope ? { scope: settings.scope } : {}),
    };
  }

  state(): string {
    if (!this.options.signIn) throw new SignInRequiredError(this.options.server);
    return this.options.signIn.state;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const { settings } = this.options;
    if (settings.clientId) {
      return {
        client_id: settings.clientId,
        ...(settings.clientSecret ? { client_secret: settings.clientSecret } : {}),
        ...(settings.tokenEndpointAuthMethod ? { token_endpoint_auth_method: settings.tokenEndpointAuthMethod } : {}),
      } as OAuthClientInformationMixed;
    }
    // registering a client is part of signing in: a background connection does not do it
    if (!this.credentials.client && !this.options.signIn) throw new SignInRequiredError(this.options.server);
    return this.credentials.client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    // a pre-registered client lives in the settings (its secret encrypted there), not here
    if (this.options.settings.clientId) return;
    this.credentials = {
      ...this.credentials,
      client,
      redirectPort: this.options.signIn?.redirectPort,
    };
    await this.persist();
  }

  tokens(): OAuthTokens | undefined {
    return this.credentials.tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = tokens.expires_in !== undefined ? Date.now() + tokens.expires_in * 1000 : undefined;
    // a refresh answer may leave out the refresh token: the one we hold stays valid then
    const refresh = tokens.refresh_token ?? this.credentials.tokens?.refresh_token;
    this.credentials = {
      ...this.credentials,
      tokens: { ...tokens, ...(refresh ? { refresh_token: refresh } : {}) },
      expiresAt,
    };
    await this.persist();
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.options.signIn) throw new SignInRequiredError(this.options.server);
    await this.options.signIn.openAuthorization(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.verifier = codeVerifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no sign-in is in progress for this server');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'verifier' || scope === 'discovery') {
      if (scope === 'verifier') this.verifier = undefined;
      return;
    }
    const { client, tokens, expiresAt, ...rest } = this.credentials;
    if (scope === 'all') this.credentials = { url: this.options.url };
    else if (scope === 'client') this.credentials = { ...rest, tokens, expiresAt };
    else this.credentials = { ...rest, client };
    await this.persist();
  }

  /**
   * The transport's fetch for background connections, over `fetchFn`: a call refused for want of a scope (403
   * insufficient_scope, the step-up challenge) is remembered so the next sign-in asks for that scope.
   */
  watching(fetchFn: FetchLike): FetchLike {
    return async (url, init) => {
      const response = await fetchFn(url, init);
      if (response.status === 403) {
        const { error, scope } = extractWWWAuthenticateParams(response);
        if (error === 'insufficient_scope' && scope) await this.noteScopeNeeded(scope);
      }
      return response;
    };
  }

  /** scopes a call was refused for, not yet granted by a sign-in */
  scopeNeeded(): string | undefined {
    return this.credentials.scopeNeeded;
  }

  async noteScopeNeeded(scope: string): Promise<void> {
    this.credentials = { ...this.credentials, scopeNeeded: joinScopes(this.credentials.scopeNeeded, scope) };
    await this.persist();
  }

  async clearScopeNeeded(): Promise<void> {
    const { scopeNeeded: _granted, ...rest } = this.credentials;
    this.credentials = rest;
    await this.persist();
  }

  /** What the settings and `manus mcp test` show: signed in or not, as whom (when the server says), until when. */
  signedIn(): { signedIn: boolean; account?: string; expiresAt?: number } {
    const account = accountOf(this.credentials.tokens?.id_token);
    return {
      signedIn: Boolean(this.credentials.tokens),
      ...(account ? { account } : {}),
      expiresAt: this.credentials.expiresAt,
    };
  }

  private async persist(): Promise<void> {
    await this.options.store.write(this.options.server, this.credentials);
  }
}

/** Space-separated scope lists merged, each scope once, in first-seen order. */
export function joinScopes(...lists: (string | undefined)[]): string | undefined {
  const scopes = [...new Set(lists.flatMap((list) => list?.split(' ').filter(Boolean) ?? []))];
  return scopes.length > 0 ? scopes.join(' ') : undefined;
}

const IdTokenClaimsSchema = z.object({
  email: z.string().optional(),
  preferred_username: z.string().optional(),
  name: z.string().optional(),
  sub: z.string().optional(),
});

/**
 * Who an OpenID Connect ID token names, for display only: its signature is not checked, as nothing is granted
 * on its word (the access token is what the server judges).
 */
function accountOf(idToken: string | undefined): string | undefined {
  const payload = idToken?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = IdTokenClaimsSchema.safeParse(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
    if (!claims.success) return undefined;
    return claims.data.email ?? claims.data.preferred_username ?? claims.data.name ?? claims.data.sub;
  } catch {
    return undefined;
  }
}
