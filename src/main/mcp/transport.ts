import { join } from 'node:path';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../../shared/settings/mcp-settings.js';
import { findExecutable, mergePaths, userShellPath } from './command-resolution.js';
import type { McpOAuthProvider } from './oauth/oauth-provider.js';
import { outboundFetchWith, type GuardedFetch, type OutboundFetch } from '../net/guarded-fetch.js';
import { CREDENTIAL_NAME, environmentSecrets, redactText } from '../store/redact.js';
import { redactingLineStream } from '../store/redacting-stream.js';
import type { ServerLog } from './server-log.js';

/** A transport ready to connect, plus the stdio child's pid once started (for diagnostics and tests). */
export interface OpenedTransport {
  transport: Transport;
  pid(): number | undefined;
}

export class CommandNotFoundError extends Error {
  constructor(command: string, searchedPath: string) {
    super(`command "${command}" was not found on PATH (${searchedPath || 'empty PATH'})`);
    this.name = 'CommandNotFoundError';
  }
}

/** A stdio server nobody has seen the command of: refused here, the one place a server process is started. */
export class UnconfirmedCommandError extends Error {
  constructor() {
    super('its command has not been confirmed yet');
    this.name = 'UnconfirmedCommandError';
  }
}

/** Where the person sees and confirms a server's command. */
export function howToConfirm(server: string): string {
  return `see it and confirm it with \`manus mcp confirm ${server}\` or in Settings → MCP servers`;
}

export function mcpLogPath(logDir: string, server: string): string {
  return join(logDir, `mcp-${server.replace(/[^a-zA-Z0-9_.-]/g, '_')}.log`);
}

/** Refuses private addresses: what a caller that passes no policy of its own gets. */
export const STRICT_OUTBOUND: OutboundFetch = outboundFetchWith(() => false);

/**
 * A remote server's requests under the egress policy. The server's own origin is the person's choice (a local MCP
 * server is fine); the sign-in metadata, authorization server and redirects it names anywhere else are the
 * server's word and must pass the policy like any page (a resource_metadata on a loopback admin service is refused).
 */
export function serverFetch(config: { url: string }, outbound: OutboundFetch): GuardedFetch {
  return outbound([new URL(config.url).origin]);
}

/** A remote server's transport; with an OAuth provider it signs its requests and answers 401s and 403s. */
export function remoteTransport(
  config: Extract<McpServerConfig, { type: 'sse' | 'http' }>,
  authProvider: OAuthClientProvider | undefined,
  fetchFn: FetchLike,
): SSEClientTransport | StreamableHTTPClientTransport {
  const options = { requestInit: { headers: config.headers }, authProvider, fetch: fetchFn };
  return config.type === 'sse'
    ? new SSEClientTransport(new URL(config.url), options)
    : new StreamableHTTPClientTransport(new URL(config.url), options);
}

export async function openTransport(
  config: McpServerConfig,
  log: ServerLog,
  outbound: OutboundFetch,
  authProvider?: McpOAuthProvider,
): Promise<OpenedTransport> {
  if (config.type !== 'stdio') {
    const fetchFn = serverFetch(config, outbound);
    const watched = authProvider ? authProvider.watching(fetchFn) : fetchFn;
    return { transport: remoteTransport(config, authProvider, watched), pid: () => undefined };
  }
  if (config.unconfirmed) throw new UnconfirmedCommandError();
  const { command, env } = await resolveLaunch(config);
  const transport = new StdioClientTransport({ command, args: config.args, env, cwd: config.cwd, stderr: 'pipe' });
  const secrets = [...credentialValues(config.env), ...environmentSecrets()];
  pipeStderrToLog(transport, log, `${command} ${config.args.join(' ')}`, secrets);
  return { transport, pid: () => transport.pid ?? undefined };
}

/** The executable and environment a user's shell would use: their PATH, then the server's own env on top. */
async function resolveLaunch(config: Extract<McpServerConfig, { type: 'stdio' }>) {
  const platform = process.platform;
  const env: Record<string, string> = { ...getDefaultEnvironment(), ...config.env };
  let path = config.env.PATH ?? process.env.PATH ?? '';
  const lookup = { pathExt: process.env.PATHEXT, cwd: config.cwd };
  let command = findExecutable(config.command, { ...lookup, path });
  if (!command) {
    path = mergePaths(platform, path, await userShellPath());
    command = findExecutable(config.command, { ...lookup, path });
  }
  if (!command) throw new CommandNotFoundError(config.command, path);
  env.PATH = path;
  return { command, env };
}

/** The values of a server's env variables named like credentials: what it is most likely to print back. */
function credentialValues(env: Record<string, string>): string[] {
  return Object.entries(env)
    .filter(([name]) => CREDENTIAL_NAME.test(name))
    .map(([, value]) => value);
}

function pipeStderrToLog(
  transport: StdioClientTransport,
  log: ServerLog,
  commandLine: string,
  secrets: readonly string[],
): void {
  const redact = (text: string) => redactText(text, secrets);
  void log.write(redact(`\n--- ${new Date().toISOString()} starting: ${commandLine}\n`));
  // a server that prints its token (or a key from its env) must not leave it in the log file
  transport.stderr?.pipe(redactingLineStream(redact)).pipe(log.stream());
}
