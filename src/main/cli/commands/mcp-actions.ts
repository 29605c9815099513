import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import {
  McpServerConfigSchema,
  type McpServerConfig,
  type McpSettings,
} from '../../../shared/settings/mcp-settings.js';
import { readMcpSettings, updateMcpSettings } from '../../mcp/mcp-settings-store.js';
import { formatMcpConfigFile, parseMcpConfigFile } from '../../mcp/config-file.js';
import { McpManager } from '../../mcp/mcp-manager.js';
import type { McpServerStatus } from '../../mcp/server-connection.js';
import { credentialStoreIn, type McpCredentialStore } from '../../mcp/oauth/credential-store.js';
import { signInToMcpServer, type RemoteServerConfig } from '../../mcp/oauth/sign-in.js';
import { terminalText } from '../output/terminal-text.js';
import { readSettings } from '../../config/settings-store.js';
import { outboundFetchWith, type OutboundFetch } from '../../net/guarded-fetch.js';
import type { SessionStore } from '../../store/store-api.js';
import type { SecretBox } from '../../store/secrets.js';
import { withData, type StoreDeps } from './command-deps.js';
import type { DepsSource } from './deps-source.js';

const SERVER_NAME = /^[a-zA-Z0-9_-]{1,40}$/;

type Deps = DepsSource<StoreDeps>;

export interface AddOptions {
  command?: string;
  arg: string[];
  env: string[];
  cwd?: string;
  url?: string;
  type?: 'sse' | 'http';
  header: string[];
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  scope?: string;
  tokenAuth?: 'none' | 'client_secret_basic' | 'client_secret_post';
  timeout?: string;
  disabled?: boolean;
  force?: boolean;
}

function keyValues(pairs: string[], what: string): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new Error(`${what} "${pair}" is not KEY=VALUE`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** The server config an `add` describes: a command line (flags or after `--`) or a URL. */
function configFromAdd(options: AddOptions, commandLine: string[]): McpServerConfig {
  const command = options.command ?? commandLine[0];
  const args = options.command ? [...options.arg, ...commandLine] : [...commandLine.slice(1), ...options.arg];
  if (command && options.url) throw new Error('Give either a command (--command or after --) or --url, not both.');
  if (!command && !options.url) throw new Error('Give a command (--command CMD or `-- CMD ARGS...`) or --url URL.');
  const common = {
    enabled: !options.disabled,
    ...(options.timeout ? { timeoutMs: Number(options.timeout) } : {}),
  };
  const raw = command
    ? { type: 'stdio', command, args, env: keyValues(options.env, '--env'), cwd: options.cwd, ...common }
    : {
        type: options.type ?? (/\/sse\/?$/.test(options.url ?? '') ? 'sse' : 'http'),
        url: options.url,
        headers: keyValues(options.header, '--header'),
        oauth: {
          clientId: options.clientId,
          clientSecret: options.clientSecret,
          clientMetadataUrl: options.clientMetadataUrl,
          scope: options.scope,
          tokenEndpointAuthMethod: options.tokenAuth,
        },
        ...common,
      };
  const parsed = McpServerConfigSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `Invalid MCP server: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  return parsed.data;
}

function describeConfig(config: McpServerConfig): string {
  if (config.type === 'stdio') return [config.command, ...config.args].join(' ');
  return `${config.type} ${config.url}`;
}

function requireServer(settings: McpSettings, name: string): McpServerConfig {
  const config = settings.servers[name];
  if (!config) {
    const known = Object.keys(settings.servers);
    throw new Error(
      `No MCP server "${name}"${known.length ? ` (configured: ${known.join(', ')})` : ' (none configured)'}.`,
    );
  }
  return config;
}

function requireRemote(config: McpServerConfig, name: string): RemoteServerConfig {
  if (config.type === 'stdio')
    throw new Error(`MCP server "${name}" runs a local command: there is nothing to sign in to.`);
  return config;
}

/** Requests to MCP servers under the egress policy, with the saved browser.allowPrivateNetwork. */
function savedOutbound(store: SessionStore, secrets: SecretBox): OutboundFetch {
  return outboundFetchWith(() => readSettings(store, secrets).settings.browser.allowPrivateNetwork);
}

/** Signs in from the terminal: the browser opens (or the URL is printed), Ctrl-C cancels. */
async function signInFromTerminal(
  name: string,
  config: RemoteServerConfig,
  store: McpCredentialStore,
  outbound: OutboundFetch,
): Promise<void> {
  const abort = new AbortController();
  const cancel = () => abort.abort(new Error('Sign-in cancelled.'));
  process.once('SIGINT', cancel);
  try {
    const result = await signInToMcpServer({
      server: name,
      config,
      store,
      signal: abort.signal,
      outbound,
      onWaiting: (url) =>
        process.stderr.write(
          `Waiting for sign-in… (the browser opens; if it does not, visit ${terminalText(url)} ). Ctrl-C cancels.\n`,
        ),
    });
    if (result.status === 'not_required') process.stdout.write(`MCP server "${name}" does not ask for a sign-in.\n`);
    else process.stdout.write(`Signed in to "${name}"${expiryText(result.expiresAt)}.\n`);
  } finally {
    process.off('SIGINT', cancel);
  }
}

function expiryText(expiresAt: number | undefined): string {
  return expiresAt ? ` (the token expires ${new Date(expiresAt).toISOString()}, then it is refreshed)` : '';
}

function printStatus(status: McpServerStatus): void {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`${status.name}: ${status.status}${status.error ? ` — ${status.error}` : ''}`);
  if (status.auth) {
    const account = status.auth.account ? ` as ${terminalText(status.auth.account)}` : '';
    out(`  ${status.auth.signedIn ? `signed in${account}${expiryText(status.auth.expiresAt)}` : 'not signed in'}`);
  }
  if (status.logPath) out(`  log: ${status.logPath}`);
  out(`  tools (${status.tools.length}):`);
  for (const tool of status.tools)
    out(`    ${tool.name}${tool.description ? ` — ${firstLine(tool.description)}` : ''}`);
  if (status.prompts.length)
    out(`  prompts (${status.prompts.length}): ${status.prompts.map((p) => p.name).join(', ')}`);
  if (status.resources.length) {
    out(
      `  resources (${status.resources.length}): ${status.resources
        .map((r) => r.uri)
        .slice(0, 20)
        .join(', ')}`,
    );
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 100);
}

/** `manus mcp add NAME ...` */
export async function addServer(
  deps: Deps,
  name: string,
  commandLine: string[],
  options: AddOptions,
  command: Command,
): Promise<void> {
  if (!SERVER_NAME.test(name)) throw new Error(`Server name "${name}" must be 1-40 of a-z A-Z 0-9 _ -.`);
  const config = configFromAdd(options, commandLine);
  await withData(deps, command, ({ store, secrets }) => {
    updateMcpSettings(store, secrets, (current) => {
      if (current.servers[name] && !options.force) {
        throw new Error(`An MCP server "${name}" exists already; use --force to replace it.`);
      }
      return { ...current, servers: { ...current.servers, [name]: config } };
    });
  });
  process.stdout.write(`MCP server "${name}" added: ${describeConfig(config)}\n`);
}

/** `manus mcp remove NAME` */
export async function removeServer(deps: Deps, name: string, command: Command): Promise<void> {
  await withData(deps, command, ({ store, secrets }) =>
    updateMcpSettings(store, secrets, (current) => {
      requireServer(current, name);
      const { [name]: _removed, ...servers } = current.servers;
      return { ...current, servers };
    }),
  );
  process.stdout.write(`MCP server "${name}" removed.\n`);
}

/** `manus mcp enable|disable NAME` */
export async function switchServer(deps: Deps, name: string, enabled: boolean, command: Command): Promise<void> {
  await withData(deps, command, ({ store, secrets }) =>
    updateMcpSettings(store, secrets, (current) => ({
      ...current,
      servers: { ...current.servers, [name]: { ...requireServer(current, name), enabled } },
    })),
  );
  process.stdout.write(`MCP server "${name}" ${enabled ? 'enabled' : 'disabled'}.\n`);
}

/** `manus mcp list` */
export async function listServers(deps: Deps, options: { json?: boolean }, command: Command): Promise<void> {
  const settings = await withData(deps, command, ({ store, secrets }) => readMcpSettings(store, secrets));
  if (options.json) {
    const servers = Object.entries(settings.servers).map(([name, config]) => ({ name, ...config }));
    process.stdout.write(`${JSON.stringify(servers, null, 2)}\n`);
    return;
  }
  const entries = Object.entries(settings.servers);
  if (entries.length === 0) process.stdout.write('No MCP servers. Add one with `manus mcp add NAME -- CMD ARGS`.\n');
  for (const [name, config] of entries) {
    process.stdout.write(`${name}\t${config.enabled ? 'enabled ' : 'disabled'}\t${describeConfig(config)}\n`);
  }
}

/** `manus mcp test NAME` */
export async function testServer(deps: Deps, name: string, command: Command): Promise<void> {
  await withData(deps, command, async ({ store, secrets, dataDir }) => {
    const config = requireServer(readMcpSettings(store, secrets), name);
    const credentials = credentialStoreIn(dataDir, secrets);
    const outbound = savedOutbound(store, secrets);
    const probe = async () => {
      const manager = new McpManager(join(dataDir, 'logs'), { credentials, outbound });
      try {
        await manager.apply({ servers: { [name]: { ...config, enabled: true } } });
        return manager.status(name);
      } finally {
        await manager.close();
      }
    };
    let status = await probe();
    if (status?.auth?.signInRequired && config.type !== 'stdio') {
      process.stderr.write(`MCP server "${name}" asks for a sign-in.\n`);
      await signInFromTerminal(name, config, credentials, outbound);
      status = await probe();
    }
    if (status) printStatus(status);
    if (status?.status !== 'connected') process.exitCode = 1;
  });
}

/** `manus mcp login NAME` */
export async function logIn(deps: Deps, name: string, command: Command): Promise<void> {
  await withData(deps, command, async ({ store, secrets, dataDir }) => {
    const config = requireRemote(requireServer(readMcpSettings(store, secrets), name), name);
    await signInFromTerminal(name, config, credentialStoreIn(dataDir, secrets), savedOutbound(store, secrets));
  });
}

/** `manus mcp logout NAME` */
export async function logOut(deps: Deps, name: string, command: Command): Promise<void> {
  await withData(deps, command, async ({ store, secrets, dataDir }) => {
    requireRemote(requireServer(readMcpSettings(store, secrets), name), name);
    await credentialStoreIn(dataDir, secrets).forget(name);
  });
  process.stdout.write(`Signed out of "${name}": its tokens and registered client are forgotten.\n`);
}

/** `manus mcp import FILE` */
export async function importServers(
  deps: Deps,
  file: string,
  options: { force?: boolean },
  command: Command,
): Promise<void> {
  const imported = parseMcpConfigFile(readFileSync(file, 'utf8'));
  const skipped: string[] = [];
  await withData(deps, command, ({ store, secrets }) =>
    updateMcpSettings(store, secrets, (current) => {
      const servers = { ...current.servers };
      for (const [name, config] of Object.entries(imported)) {
        if (servers[name] && !options.force) skipped.push(name);
        else servers[name] = config;
      }
      return { ...current, servers };
    }),
  );
  const added = Object.keys(imported).filter((name) => !skipped.includes(name));
  process.stdout.write(`Imported ${added.length} MCP server(s)${added.length ? `: ${added.join(', ')}` : ''}.\n`);
  if (skipped.length) {
    process.stdout.write(`Kept the existing ${skipped.join(', ')} (use --force to replace).\n`);
  }
}

/** `manus mcp export [file]` */
export async function exportServers(deps: Deps, file: string | undefined, command: Command): Promise<void> {
  const settings = await withData(deps, command, ({ store, secrets }) => readMcpSettings(store, secrets));
  const text = formatMcpConfigFile(settings.servers);
  if (file) {
    writeFileSync(file, text, { mode: 0o600 });
    process.stdout.write(`Exported ${Object.keys(settings.servers).length} MCP server(s) to ${file}.\n`);
  } else {
    process.stdout.write(text);
  }
}
