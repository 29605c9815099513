import { createServer as createHttpServer } from 'node:http';
import express, { type Request, type Response } from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { createRequestGuard } from '../../server/request-guard.js';
import { LOOPBACK_ADDRESS, listenOn, serverUrl } from '../../server/server-address.js';
import { McpHttpSessions, McpSessionsFullError, type McpSessionLimits } from './http-sessions.js';

export const MCP_HTTP_PATH = '/mcp';

export async function serveMcpOverStdio(server: Server): Promise<void> {
  await server.connect(new StdioServerTransport());
}

export interface McpHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface McpHttpOptions {
  port: number;
  /** every request carries `Authorization: Bearer <token>` */
  token: string;
  /** the address to listen on; loopback unless told otherwise (the tools run code and read files) */
  host?: string;
  /** more names clients may reach the server by (Host header), when listening beyond loopback */
  allowedHosts?: string[];
  /** how many client sessions are kept (default: 100) */
  sessionLimits?: McpSessionLimits;
}

/**
 * Streamable HTTP on 127.0.0.1 with a server instance per MCP session (so a client's cancellation reaches the call
 * it cancels), every request carrying `Authorization: Bearer <token>`; of browser pages, only those on this machine.
 */
export async function serveMcpOverHttp(createServer: () => Server, options: McpHttpOptions): Promise<McpHttpServer> {
  const address = options.host ?? LOOPBACK_ADDRESS;
  const guard = createRequestGuard({
    address,
    token: options.token,
    allowedHosts: options.allowedHosts,
    loopbackOrigins: true,
    realm: 'manus-mcp',
  });
  const app = express();
  // the guard before any body is read; the SDK's own DNS-rebinding check stays on behind it
  app.use(guard.middleware(), hostHeaderValidation([...guard.hostNames]), express.json());
  const sessions = new McpHttpSessions(createServer, options.sessionLimits);
  const refuse = (res: Response, status: number, message: string) =>
    res.status(status).json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null });
  app.post(MCP_HTTP_PATH, async (req: Request, res: Response) => {
    const sessionId = req.header('mcp-session-id');
    // the client starts again with an initialize request on a 404 (a session closed as idle, a restarted server)
    if (sessionId && !sessions.has(sessionId)) return refuse(res, 404, 'Session not found.');
    if (!sessionId && !isInitializeRequest(req.body)) {
      return refuse(res, 400, 'Bad request: initialize a session first, then send its Mcp-Session-Id header.');
    }
    try {
      await sessions.handle(sessionId, req, res);
    } catch (error) {
      if (res.headersSent) return;
      if (error instanceof McpSessionsFullError) return refuse(res, 503, error.message);
      res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: (error as Error).message }, id: null });
    }
  });
  // the client ends its session with a DELETE; server-to-client messages go on the streams of its requests
  app.delete(MCP_HTTP_PATH, async (req: Request, res: Response) => {
    const sessionId = req.header('mcp-session-id');
    if (!sessionId || !sessions.has(sessionId)) return refuse(res, 404, 'Session not found.');
    await sessions.handle(sessionId, req, res);
  });
  app.get(MCP_HTTP_PATH, (_req: Request, res: Response) =>
    refuse(res.set('Allow', 'POST, DELETE'), 405, 'Method not allowed.'),
  );

  const http = createHttpServer(app);
  const port = await listenOn(http, address, options.port);
  return {
    url: `${serverUrl(address, port, options.allowedHosts)}${MCP_HTTP_PATH}`,
    port,
    close: async () => {
      await sessions.closeAll();
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
    },
  };
}
