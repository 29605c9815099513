import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  LoggingMessageNotificationSchema,
  McpError,
  type CallToolResult,
  type LoggingMessageNotification,
  type Prompt,
  type Resource,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { McpOAuthProvider, SignInRequiredError } from './oauth/oauth-provider.js';
import type { McpServerConfig } from '../../shared/settings/mcp-settings.js';
import {
  CommandNotFoundError,
  UnconfirmedCommandError,
  howToConfirm,
  mcpLogPath,
  openTransport,
  STRICT_OUTBOUND,
  type OpenedTransport,
} from './transport.js';
import type { OutboundFetch } from '../net/guarded-fetch.js';
import { toToolResult } from './tool-result.js';
import { clipLogMessage, ServerLog } from './server-log.js';
import { toolError, type ToolResult } from '../tool/tool.js';
import type { McpClientHost } from './client-host.js';
import type { McpCredentialStore } from './oauth/credential-store.js';

const RECONNECT_BASE_DELAY_MS = 500;
const RECONNECT_MAX_DELAY_MS = 30_000;
/** consecutive failed connects after which a server stays failed until settings are applied again */
const MAX_CONNECT_FAILURES = 8;
const PING_TIMEOUT_MS = 5_000;
/** a tool list younger than this is not asked for again (several turns in a row, a flow's steps) */
const TOOL_LIST_FRESH_MS = 5_000;
/** listing again at a turn's start waits at most this long; the list stays as it was if the server is slow */
const TOOL_RELIST_TIMEOUT_MS = 5_000;
const CLIENT_INFO = { name: 'manus-desktop', version: '0.1.0' };
/** what servers that log are asked to send: their notes and problems, not their debugging */
const SERVER_LOG_LEVEL = 'info';

export type McpServerState = 'connecting' | 'connected' | 'failed' | 'disabled';
export type McpConnectFailure = 'command_not_found' | 'sign_in_required' | 'unconfirmed';

export interface McpServerStatus {
  name: string;
  type: McpServerConfig['type'];
  status: McpServerState;
  /** why the server is not connected, in words a user can act on */
  error?: string;
  /** why connecting failed, when it is one the UI says in its own words */
  failure?: McpConnectFailure;
  tools: { name: string; description?: string }[];
  prompts: { name: string; description?: string }[];
  resources: { uri: string; name: string; mimeType?: string }[];
  /** where the server's log messages (and a stdio server's stderr) go */
  logPath?: string;
  /** stdio: the running child's pid */
  pid?: number;
  /** remote servers with OAuth: signed in or not, as whom, until when (ms since epoch), whether sign-in is needed */
  auth?: { signedIn: boolean; account?: string; expiresAt?: number; signInRequired: boolean };
}

export interface CallOptions {
  signal?: AbortSignal;
  /** a progress notification of the call, or a log message the server sent while it ran, as one line */
  onProgress?: (line: string) => void;
}

interface CallInFlight {
  signal: AbortSignal;
  onLine: (line: string) => void;
}

export interface McpConnectionOptions {
  /** answers servers' elicitation and sampling requests; without one they are not offered */
  host?: McpClientHost;
  /** remote servers' OAuth tokens: used and refreshed, never a new sign-in (that is `signInToMcpServer`) */
  credentials?: McpCredentialStore;
  /** how remote servers' requests go out (the egress policy with browser.allowPrivateNetwork); strict by default */
  outbound?: OutboundFetch;
}

/**
 * One configured MCP server: connects with a timeout, keeps its tool/prompt/resource lists,
 * and reconnects with backoff when the server exits or stops answering.
 */
export class McpServerConnection {
  private client?: Client;
  private opened?: OpenedTransport;
  private state: McpServerState = 'connecting';
  private lastError?: string;
  private lastFailure?: McpConnectFailure;
  private tools: McpTool[] = [];
  /** when the tools were last listed (ms since epoch) */
  private toolsListedAt = 0;
  private prompts: Prompt[] = [];
  private resources: Resource[] = [];
  private connecting?: Promise<void>;
  private reconnectTimer?: NodeJS.Timeout;
  private failures = 0;
  /** bumped on every (re)connect and close so events of an old client are ignored */
  private generation = 0;
  private closed = false;
  /** aborted when the current client goes: the server's pending requests to the person end with it */
  private clientLifetime = new AbortController();
  private readonly inFlight = new Set<CallInFlight>();
  private authProvider?: McpOAuthProvider;
  private signInRequired = false;
  private readonly log: ServerLog;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    logDir: string,
    private readonly onChange: () => void,
    private readonly options: McpConnectionOptions = {},
  ) {
    this.log = new ServerLog(mcpLogPath(logDir, name));
  }

  /** Connects (never throws: a failure is the status); resolves when this attempt ended. */
  connect(): Promise<void> {
    clearTimeout(this.reconnectTimer);
    this.connecting = this.connectOnce().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  /** Whether reconnecting stopped after too many failures (a new `apply` gives it a fresh start). */
  gaveUp(): boolean {
    return this.state === 'failed' && this.failures > MAX_CONNECT_FAILURES;
  }

  listTools(): McpTool[] {
    return this.tools;
  }

  isConnected(): boolean {
    return this.state === 'connected';
  }

  /**
   * Lists the tools again when the server does not announce changes (no `listChanged`) and the list is older than
   * a few seconds; never throws (a server that does not answer keeps its list, its calls find out the rest).
   */
  async refreshTools(): Promise<void> {
    const client = this.client;
    if (this.state !== 'connected' || !client) return;
    const tools = client.getServerCapabilities()?.tools;
    if (!tools || tools.listChanged || Date.now() - this.toolsListedAt < TOOL_LIST_FRESH_MS) return;
    const generation = this.generation;
    try {
      const listed = await withTimeout(
        listAll<McpTool>((cursor) => client.listTools({ cursor }), 'tools'),
        TOOL_RELIST_TIMEOUT_MS,
        `no tool list within ${TOOL_RELIST_TIMEOUT_MS} ms`,
      );
      this.toolsListedAt = Date.now();
      const before = this.tools.map((tool) => tool.name).join('\n');
      if (listed.map((tool) => tool.name).join('\n') === before) this.tools = listed;
      else this.updateList(generation, null, () => (this.tools = listed));
    } catch {
      // the list stays as it was
    }
  }

  status(): McpServerStatus {
    return {
      name: this.name,
      type: this.config.type,
      status: this.state,
      ...(this.lastError && this.state !== 'connected' ? { error: this.lastError } : {}),
      ...(this.lastFailure && this.state !== 'connected' ? { failure: this.lastFailure } : {}),
      tools: this.tools.map((tool) => ({ name: tool.name, description: tool.description })),
      prompts: this.prompts.map((prompt) => ({ name: prompt.name, description: prompt.description })),
      resources: this.resources.map((resource) => ({
        uri: resource.uri,
        name: resource.name,
        mimeType: resource.mimeType,
      })),
      logPath: this.log.path,
      ...(this.opened?.pid() ? { pid: this.opened.pid() } : {}),
      ...(this.authProvider ? { auth: { ...this.authProvider.signedIn(), signInRequired: this.signInRequired } } : {}),
    };
  }

  async callTool(tool: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<ToolResult> {
    if (this.connecting) await this.connecting;
    const client = this.client;
    if (this.state !== 'connected' || !client) {
      return toolError(
        `MCP server "${this.name}" is not connected (${this.lastError ?? this.state}); try again later.`,
      );
    }
    const timeoutMs = this.config.timeoutMs;
    // the SDK never removes its abort listener: a per-call signal keeps the session's signal from collecting them
    const callAbort = new AbortController();
    const forwardAbort = () => callAbort.abort(options.signal?.reason);
    if (options.signal?.aborted) callAbort.abort(options.signal.reason);
    options.signal?.addEventListener('abort', forwardAbort, { once: true });
    const call: CallInFlight = { signal: callAbort.signal, onLine: (line) => options.onProgress?.(line) };
    this.inFlight.add(call);
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        signal: callAbort.signal,
        timeout: timeoutMs,
        resetTimeoutOnProgress: true,
        onprogress: options.onProgress ? (progress) => call.onLine(progressLine(progress)) : undefined,
      });
      return toToolResult(result as CallToolResult);
    } catch (error) {
      if (options.signal?.aborted) return toolError(`The call to "${tool}" was cancelled.`);
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
        void this.restartIfUnresponsive();
        return toolError(
          `MCP server "${this.name}" did not answer "${tool}" within ${Math.round(timeoutMs / 1000)} s; the call was abandoned.`,
        );
      }
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
        return toolError(
          `MCP server "${this.name}" stopped during the call to "${tool}" (${error.message}); it is being restarted, try again shortly.`,
        );
      }
      const scopeNeeded = this.authProvider?.scopeNeeded();
      if (scopeNeeded) {
        this.signInRequired = true;
        this.onChange();
        return toolError(
          `MCP server "${this.name}" needs more permission for "${tool}" (scope "${scopeNeeded}"): ${new SignInRequiredError(this.name).message}.`,
        );
      }
      // a transport failure (not an answer from the server) may mean the server is gone: check, reconnect if so
      if (!(error instanceof McpError)) void this.restartIfUnresponsive();
      return toolError(`MCP tool "${tool}" on server "${this.name}" failed: ${messageOf(error)}`);
    } finally {
      this.inFlight.delete(call);
      options.signal?.removeEventListener('abort', forwardAbort);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.generation++;
    await this.dropClient();
  }

  /** Stops the server and marks it disabled (kept so its status can still be shown). */
  async disable(): Promise<void> {
    await this.close();
    this.state = 'disabled';
    this.lastError = undefined;
    this.tools = [];
    this.prompts = [];
    this.resources = [];
    this.onChange();
  }

  private async connectOnce(): Promise<void> {
    const generation = ++this.generation;
    await this.dropClient();
    this.setState('connecting');
    const attempt = this.openAndList(generation);
    try {
      await withTimeout(attempt, this.config.connectTimeoutMs, `no answer within ${this.config.connectTimeoutMs} ms`);
      if (generation !== this.generation) return;
      this.failures = 0;
      this.signInRequired = false;
      this.lastError = undefined;
      this.setState('connected');
    } catch (error) {
      attempt.catch(() => undefined);
      if (generation !== this.generation) return;
      this.generation++;
      await this.dropClient();
      this.signInRequired = isSignInRequired(error);
      this.lastFailure = this.signInRequired
        ? 'sign_in_required'
        : error instanceof CommandNotFoundError
          ? 'command_not_found'
          : error instanceof UnconfirmedCommandError
            ? 'unconfirmed'
            : undefined;
      this.lastError = this.signInRequired
        ? new SignInRequiredError(this.name).message
        : this.lastFailure === 'unconfirmed'
          ? `not started: ${messageOf(error)}: ${howToConfirm(this.name)}`
          : `could not connect: ${messageOf(error)}`;
      this.setState('failed');
      // trying again cannot help until the person signs in or confirms the command
      if (!this.signInRequired && this.lastFailure !== 'unconfirmed') this.scheduleReconnect();
    }
  }

  private async openAndList(generation: number): Promise<void> {
    if (this.config.type !== 'stdio' && this.options.credentials) {
      this.authProvider = await McpOAuthProvider.open({
        server: this.name,
        url: this.config.url,
        settings: this.config.oauth,
        store: this.options.credentials,
      });
    }
    const outbound = this.options.outbound ?? STRICT_OUTBOUND;
    const opened = await openTransport(this.config, this.log, outbound, this.authProvider);
    if (generation !== this.generation) {
      await opened.transport.close();
      return;
    }
    const client = new Client(CLIENT_INFO, {
      capabilities: this.options.host ? { elicitation: { form: {} }, sampling: {} } : {},
      listChanged: {
        tools: { onChanged: (error, tools) => this.updateList(generation, error, () => (this.tools = tools ?? [])) },
        prompts: {
          onChanged: (error, prompts) => this.updateList(generation, error, () => (this.prompts = prompts ?? [])),
        },
        resources: {
          onChanged: (error, resources) => this.updateList(generation, error, () => (this.resources = resources ?? [])),
        },
      },
    });
    this.client = client;
    this.opened = opened;
    this.answerServerRequests(client);
    client.onclose = () => this.handleClosed(generation);
    await client.connect(opened.transport, { timeout: this.config.connectTimeoutMs });
    const capabilities = client.getServerCapabilities() ?? {};
    // a server that cannot set its level still logs at its own: nothing to do about it
    if (capabilities.logging) await client.setLoggingLevel(SERVER_LOG_LEVEL).catch(() => undefined);
    this.tools = capabilities.tools ? await listAll<McpTool>((cursor) => client.listTools({ cursor }), 'tools') : [];
    this.toolsListedAt = Date.now();
    // prompts and resources are extras: a server that fails to list them still serves its tools
    this.prompts = capabilities.prompts
      ? await listAll<Prompt>((cursor) => client.listPrompts({ cursor }), 'prompts').catch(() => [])
      : [];
    this.resources = capabilities.resources
      ? await listAll<Resource>((cursor) => client.listResources({ cursor }), 'resources').catch(() => [])
      : [];
  }

  private answerServerRequests(client: Client): void {
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
      this.keepServerLog(notification.params),
    );
    const host = this.options.host;
    if (!host) return;
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      const params = request.params;
      // only form mode is declared (the SDK already refuses the rest): this narrows the type
      if (params.mode === 'url') throw new McpError(ErrorCode.InvalidParams, 'URL-mode elicitation is not supported');
      return host.elicit(this.name, params, this.askScope(extra.signal));
    });
    client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
      host.sample(this.name, request.params, this.askScope(extra.signal)),
    );
  }

  /**
   * How long a server's question to the person may wait: until the server withdraws it, the connection goes,
   * or a tool call running when it came is cancelled (the run it belongs to was stopped).
   */
  private askScope(requestSignal: AbortSignal): AbortSignal {
    const calls = [...this.inFlight].map((call) => call.signal);
    return AbortSignal.any([requestSignal, this.clientLifetime.signal, ...calls]);
  }

  /**
   * A server's log message, clipped to MAX_LOG_MESSAGE_CHARS: kept in its (rotated) log file, and shown on the cards
   * of the calls running meanwhile.
   */
  private keepServerLog(params: LoggingMessageNotification['params']): void {
    const text = typeof params.data === 'string' ? params.data : jsonOrNothing(params.data);
    const line = clipLogMessage(`[${params.level}]${params.logger ? ` ${params.logger}:` : ''} ${text}`);
    void this.log.write(`${new Date().toISOString()} ${line}\n`);
    for (const call of this.inFlight) call.onLine(line);
  }

  private updateList(generation: number, error: Error | null, apply: () => void): void {
    if (generation !== this.generation || error) return;
    apply();
    this.onChange();
  }

  private handleClosed(generation: number): void {
    // while connecting, the failed connect reports the reason itself
    if (generation !== this.generation || this.closed || this.state !== 'connected') return;
    this.generation++;
    const seeLog = this.config.type === 'stdio' ? ` (see ${this.log.path})` : '';
    this.client = undefined;
    this.lastError = `the server closed the connection${seeLog}; reconnecting`;
    this.lastFailure = undefined;
    this.setState('failed');
    this.scheduleReconnect();
  }

  /** A call timed out: if the server does not even answer a ping it is hung, so restart it. */
  private async restartIfUnresponsive(): Promise<void> {
    const client = this.client;
    if (!client || this.state !== 'connected') return;
    try {
      await client.ping({ timeout: PING_TIMEOUT_MS });
    } catch {
      if (client !== this.client || this.closed) return;
      this.generation++;
      // a hung process would sit through the polite stdin-close-then-SIGTERM shutdown: end it at once
      killQuietly(this.opened?.pid());
      await this.dropClient();
      this.lastError = 'the server stopped answering; restarting it';
      this.lastFailure = undefined;
      this.setState('failed');
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    this.failures++;
    if (this.failures > MAX_CONNECT_FAILURES) {
      this.lastError = `${this.lastError ?? 'failed'} (gave up after ${MAX_CONNECT_FAILURES} attempts)`;
      this.onChange();
      return;
    }
    const delay = Math.min(RECONNECT_BASE_DELAY_MS * 2 ** (this.failures - 1), RECONNECT_MAX_DELAY_MS);
    this.reconnectTimer = setTimeout(() => void this.connect(), delay);
    this.reconnectTimer.unref();
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    const opened = this.opened;
    this.client = undefined;
    this.opened = undefined;
    this.clientLifetime.abort(new Error(`the connection to MCP server "${this.name}" ended`));
    this.clientLifetime = new AbortController();
    try {
      if (client) await client.close();
      else await opened?.transport.close();
    } catch {
      // closing a transport that already died has nothing left to release
    }
  }

  private setState(state: McpServerState): void {
    this.state = state;
    this.onChange();
  }
}

async function listAll<T>(
  page: (cursor?: string) => Promise<Record<string, unknown> & { nextCursor?: string }>,
  key: string,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const result = await page(cursor);
    items.push(...((result[key] as T[] | undefined) ?? []));
    cursor = result.nextCursor;
  } while (cursor);
  return items;
}

/** The SDK reports a sign-in it could not do as UnauthorizedError, or passes ours on. */
function isSignInRequired(error: unknown): boolean {
  return error instanceof SignInRequiredError || error instanceof UnauthorizedError;
}

function progressLine(progress: { progress: number; total?: number; message?: string }): string {
  const count = progress.total ? `${progress.progress}/${progress.total}` : String(progress.progress);
  return progress.message ? clipLogMessage(`${count} ${progress.message}`) : count;
}

/** Data a server logged, as JSON; data too deep to write out is named instead of crashing the handler. */
function jsonOrNothing(data: unknown): string {
  try {
    return JSON.stringify(data);
  } catch {
    return '[log data that cannot be written as JSON]';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function killQuietly(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
