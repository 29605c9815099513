import { randomUUID } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface McpSessionLimits {
  /**
   * sessions kept at most; past it the one idle the longest is closed to make room (only then: a client idle for
   * hours, like a desktop app left open, keeps its session)
   */
  maxSessions: number;
}

export const DEFAULT_SESSION_LIMITS: McpSessionLimits = { maxSessions: 100 };

/** Every session has a request under way and there is no room for another. */
export class McpSessionsFullError extends Error {
  constructor(maxSessions: number) {
    super(`The server has ${maxSessions} MCP sessions at work; try again when one has finished.`);
    this.name = 'McpSessionsFullError';
  }
}

interface McpHttpSession {
  server: Server;
  transport: StreamableHTTPServerTransport;
  lastSeen: number;
  /** requests whose HTTP exchange is still open (a run_task can take an hour without another request) */
  open: number;
}

/**
 * The MCP sessions of the streamable HTTP server: one server instance per client session, so a client's
 * `notifications/cancelled` (sent in a request of its own) reaches the instance running the call it cancels.
 */
export class McpHttpSessions {
  private readonly sessions = new Map<string, McpHttpSession>();

  constructor(
    private readonly createServer: () => Server,
    private readonly limits: McpSessionLimits = DEFAULT_SESSION_LIMITS,
  ) {}

  has(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /** Hands a request to its session's transport; `sessionId` undefined starts a session (an initialize request). */
  async handle(sessionId: string | undefined, req: Request, res: Response): Promise<void> {
    const session = sessionId ? this.sessions.get(sessionId) : await this.start();
    if (!session) throw new Error(`No MCP session ${sessionId}.`);
    session.lastSeen = Date.now();
    session.open++;
    res.on('close', () => {
      session.open--;
      session.lastSeen = Date.now();
      // the client hung up before the answers came: its calls are cancelled, as a closed connection cancels over stdio
      if (!res.writableFinished) cancelRequests(session.transport, req.body, 'the client closed the connection');
    });
    await session.transport.handleRequest(req, res, req.body);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id)));
  }

  private async start(): Promise<McpHttpSession> {
    const { maxSessions } = this.limits;
    if (this.sessions.size >= maxSessions) await this.closeLongestIdle();
    if (this.sessions.size >= maxSessions) throw new McpSessionsFullError(maxSessions);
    const server = this.createServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void this.sessions.set(id, session),
      onsessionclosed: (id) => void this.close(id),
    });
    const session: McpHttpSession = { server, transport, lastSeen: Date.now(), open: 0 };
    await server.connect(transport);
    return session;
  }

  /** Closes the session idle the longest; never one with a request under way. */
  private async closeLongestIdle(): Promise<void> {
    const idle = [...this.sessions.entries()]
      .filter(([, session]) => session.open === 0)
      .sort(([, a], [, b]) => a.lastSeen - b.lastSeen);
    if (idle[0]) await this.close(idle[0][0]);
  }

  private async close(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    this.sessions.delete(sessionId);
    // closing the server aborts the calls still running in it
    await session.server.close().catch(() => undefined);
  }
}

/** Cancels the calls a request body carried, as if the client had sent `notifications/cancelled` for each. */
function cancelRequests(transport: StreamableHTTPServerTransport, body: unknown, reason: string): void {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  for (const message of messages) {
    if (!isJSONRPCRequest(message)) continue;
    const cancelled: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: message.id, reason },
    };
    transport.onmessage?.(cancelled);
  }
}
