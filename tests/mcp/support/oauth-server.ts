import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import express from 'express';
import { mcpAuthRouter, createOAuthMetadata } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';

const SCOPE = 'mcp';
/** what `admin_action` needs on top: a call without it is refused with a step-up challenge */
const ADMIN_SCOPE = 'admin';
const ACCESS_TOKEN_SECONDS = 3600;

export interface TokenRequest {
  grantType: string;
  /** how the client proved itself */
  clientAuth: 'none' | 'client_secret_basic' | 'client_secret_post';
  clientId: string;
  resource?: string;
}

export interface TestAuthServer {
  /** the protected MCP endpoint (streamable HTTP) */
  mcpUrl: string;
  /** the same server over the older HTTP+SSE transport, a resource of its own */
  sseUrl: string;
  origin: string;
  authorizeRequests: URLSearchParams[];
  tokenRequests: TokenRequest[];
  registeredClients: OAuthClientInformationFull[];
  /** the Authorization headers the MCP endpoint was sent */
  presentedAuthorizations: string[];
  /** a client the server knows without registration */
  preRegister(client: { clientId: string; clientSecret?: string; authMethod: TokenRequest['clientAuth'] }): void;
  /** every access token issued so far stops working (as when they expire); refresh tokens still do */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  scopes: string[];
  resource?: string;
}

/**
 * An authorization server and the MCP server it protects, on one loopback port, built from the SDK's server auth
 * pieces. The protected-resource metadata sits at a path only the 401's WWW-Authenticate names, so a client finds
 * it by following the challenge; `metadata: 'openid'` serves only OpenID discovery for the authorization server.
 */
/** The protected server's tools, answering for the token the request came with. */
function whoamiServer(authInfo: AuthInfo | undefined): McpServer {
  const server = new McpServer({ name: 'protected', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Which client is calling' }, async () => ({
    content: [{ type: 'text', text: `client ${authInfo?.clientId} with scopes ${authInfo?.scopes.join(' ')}` }],
  }));
  server.registerTool('admin_action', { description: 'Needs the admin scope' }, async () => ({
    content: [{ type: 'text', text: 'admin action done' }],
  }));
  return server;
}

export async function startTestAuthServer(
  options: {
    metadata?: 'oauth' | 'openid';
    /** accept a client metadata document at this URL as a client ID (as if fetched from there) */
    clientMetadataDocument?: string;
    /** a hostile server: its metadata names this as the authorization endpoint */
    authorizationEndpoint?: string;
    /** a hostile server: its 401 names this as its resource_metadata (streamable HTTP endpoint) */
    challengeMetadataUrl?: string;
    /** a hostile server: its protected-resource metadata names these authorization servers */
    authorizationServers?: string[];
  } = {},
): Promise<TestAuthServer> {
  const clients = new Map<string, OAuthClientInformationFull>();
  const codes = new Map<string, Grant & { challenge: string; redirectUri: string }>();
  const accessTokens = new Map<string, Grant & { expiresAt: number }>();
  const refreshTokens = new Map<string, Grant>();
  const authorizeRequests: URLSearchParams[] = [];
  const tokenRequests: TokenRequest[] = [];
  const registeredClients: OAuthClientInformationFull[] = [];
  const presentedAuthorizations: string[] = [];

  const issue = (grant: Grant): OAuthTokens => {
    const accessToken = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    accessTokens.set(accessToken, { ...grant, expiresAt: Math.floor(Date.now() / 1000) + ACCESS_TOKEN_SECONDS });
    refreshTokens.set(refreshToken, grant);
    // an OpenID Connect ID token naming the person (unsigned: the client only shows who it names)
    const claims = Buffer.from(JSON.stringify({ sub: 'user-1', email: 'ada@example.com' })).toString('base64url');
    return {
      access_token: accessToken,
      id_token: `eyJhbGciOiJub25lIn0.${claims}.`,
      token_type: 'bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: refreshToken,
      scope: grant.scopes.join(' '),
    };
  };

  const provider: OAuthServerProvider = {
    clientsStore: {
      getClient: (clientId) => clients.get(clientId),
      registerClient: (client) => {
        const full = client as OAuthClientInformationFull;
        clients.set(full.client_id, full);
        registeredClients.push(full);
        return full;
      },
    },
    // the person "approves" at once: the browser script follows this redirect back to the client
    async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res) {
      const code = `code-${randomUUID()}`;
      codes.set(code, {
        clientId: client.client_id,
        scopes: params.scopes ?? [],
        resource: params.resource?.href,
        challenge: params.codeChallenge,
        redirectUri: params.redirectUri,
      });
      const target = new URL(params.redirectUri);
      target.searchParams.set('code', code);
      if (params.state) target.searchParams.set('state', params.state);
      res.redirect(target.href);
    },
    async challengeForAuthorizationCode(_client, code) {
      const grant = codes.get(code);
      if (!grant) throw new InvalidGrantError('unknown code');
      return grant.challenge;
    },
    async exchangeAuthorizationCode(client, code, _verifier, redirectUri, resource) {
      const grant = codes.get(code);
      codes.delete(code);
      if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown code');
      if (redirectUri !== grant.redirectUri) throw new InvalidGrantError('redirect_uri differs');
      if (resource?.href !== grant.resource) throw new InvalidGrantError('resource differs');
      return issue(grant);
    },
    async exchangeRefreshToken(client, refreshToken) {
      const grant = refreshTokens.get(refreshToken);
      if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('unknown refresh token');
      refreshTokens.delete(refreshToken);
      return issue(grant);
    },
    async verifyAccessToken(token): Promise<AuthInfo> {
      const grant = accessTokens.get(token);
      if (!grant) throw new InvalidTokenError('unknown or expired token');
      return {
        token,
        clientId: grant.clientId,
        scopes: grant.scopes,
        expiresAt: grant.expiresAt,
        ...(grant.resource ? { resource: new URL(grant.resource) } : {}),
      };
    },
  };

  const app = express();
  const http: Server = await new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
  const address = http.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const mcpUrl = `${origin}/mcp`;
  const resourceMetadataUrl = `${origin}/meta/protected-resource`;
  const metadata = {
    ...createOAuthMetadata({ provider, issuerUrl: new URL(origin), scopesSupported: [SCOPE, ADMIN_SCOPE] }),
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    ...(options.clientMetadataDocument ? { client_id_metadata_document_supported: true } : {}),
    ...(options.authorizationEndpoint ? { authorization_endpoint: options.authorizationEndpoint } : {}),
  };
  if (options.clientMetadataDocument) {
    clients.set(options.clientMetadataDocument, {
      client_id: options.clientMetadataDocument,
      client_name: 'Manus Desktop',
      redirect_uris: ['http://127.0.0.1/callback'],
      token_endpoint_auth_method: 'none',
    });
  }

  const authorizationServers = options.authorizationServers ?? [origin];
  const sseUrl = `${origin}/sse`;
  const sseMetadataUrl = `${origin}/meta/protected-resource-sse`;
  app.get('/meta/protected-resource-sse', (_req, res) => {
    res.json({ resource: sseUrl, authorization_servers: authorizationServers, scopes_supported: [SCOPE, ADMIN_SCOPE] });
  });
  app.get('/meta/protected-resource', (_req, res) => {
    res.json({ resource: mcpUrl, authorization_servers: authorizationServers, scopes_supported: [SCOPE, ADMIN_SCOPE] });
  });
  if (options.metadata === 'openid') {
    app.get('/.well-known/oauth-authorization-server', (_req, res) => res.status(404).end());
    app.get('/.well-known/openid-configuration', (_req, res) => {
      res.json({
        ...metadata,
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        jwks_uri: `${origin}/jwks`,
      });
    });
  } else {
    app.get('/.well-known/oauth-authorization-server', (_req, res) => res.json(metadata));
  }
  app.get('/authorize', (req, res, next) => {
    authorizeRequests.push(new URLSearchParams(req.url.split('?')[1] ?? ''));
    next();
  });
  // the SDK's token endpoint reads client credentials from the body: a Basic header is moved there first
  app.post('/token', express.urlencoded({ extended: false }), (req, res, next) => {
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    let clientAuth: TokenRequest['clientAuth'] = req.body.client_secret ? 'client_secret_post' : 'none';
    if (basic) {
      const [id, secret] = Buffer.from(basic[1], 'base64').toString().split(':').map(decodeURIComponent);
      req.body.client_id = id;
      req.body.client_secret = secret;
      clientAuth = 'client_secret_basic';
    }
    tokenRequests.push({
      grantType: req.body.grant_type,
      clientAuth,
      clientId: req.body.client_id,
      resource: req.body.resource,
    });
    next();
  });
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(origin), scopesSupported: [SCOPE] }));
  app.post('/mcp', (req, _res, next) => {
    if (req.headers.authorization) presentedAuthorizations.push(req.headers.authorization);
    next();
  });
  app.post(
    '/mcp',
    requireBearerAuth({
      verifier: provider,
      requiredScopes: [SCOPE],
      resourceMetadataUrl: options.challengeMetadataUrl ?? resourceMetadataUrl,
    }),
    express.json(),
    (req, res, next) => {
      const body = req.body as { method?: string; params?: { name?: string } };
      if (
        body.method === 'tools/call' &&
        body.params?.name === 'admin_action' &&
        !req.auth?.scopes.includes(ADMIN_SCOPE)
      ) {
        res
          .status(403)
          .set(
            'WWW-Authenticate',
            `Bearer error="insufficient_scope", scope="${SCOPE} ${ADMIN_SCOPE}", resource_metadata="${resourceMetadataUrl}"`,
          )
          .json({ error: 'insufficient_scope' });
        return;
      }
      next();
    },
    async (req, res) => {
      const server = whoamiServer(req.auth);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void transport.close());
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    },
  );

  const sseSessions = new Map<string, SSEServerTransport>();
  const sseAuth = requireBearerAuth({
    verifier: provider,
    requiredScopes: [SCOPE],
    resourceMetadataUrl: sseMetadataUrl,
  });
  app.get('/sse', sseAuth, async (req, res) => {
    const transport = new SSEServerTransport('/messages', res);
    sseSessions.set(transport.sessionId, transport);
    res.on('close', () => sseSessions.delete(transport.sessionId));
    await whoamiServer(req.auth).connect(transport);
  });
  app.post('/messages', sseAuth, express.json(), async (req, res) => {
    const transport = sseSessions.get(String(req.query.sessionId));
    if (!transport) {
      res.status(404).end();
      return;
    }
    await transport.handlePostMessage(req, res, req.body);
  });

  return {
    mcpUrl,
    sseUrl,
    origin,
    authorizeRequests,
    tokenRequests,
    registeredClients,
    presentedAuthorizations,
    preRegister: ({ clientId, clientSecret, authMethod }) => {
      clients.set(clientId, {
        client_id: clientId,
        ...(clientSecret ? { client_secret: clientSecret } : {}),
        redirect_uris: ['http://127.0.0.1/callback'],
        token_endpoint_auth_method: authMethod,
      });
    },
    expireAccessTokens: () => accessTokens.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
