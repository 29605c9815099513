import { createServer as createHttpServer } from 'node:http';
import express, { type Request, type Response } from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { hostHeaderValidation } from '@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js';
import { createRequestGuard } from '../../server/request-guard.js';
import { LOOPBACK_ADDRESS, listenOn, serverUrl } from '../../server/server-address.js';

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
}

/**
 * Streamable HTTP on 127.0.0.1, stateless (one server instance per request, so any number of clients),
 * every request carrying `Authorization: Bearer <token>` and no browser page allowed to call.
 */
export async function serveMcpOverHttp(createServer: () => Server, options: McpHttpOptions): Promise<McpHttpServer> {
  const address = options.host ?? LOOPBACK_ADDRESS;
  const guard = createRequestGuard({
    address,
    token: options.token,
    allowedHosts: options.allowedHosts,
    realm: 'manus-mcp',
  });
  const app = express();
  // the guard before any body is read; the SDK's own DNS-rebinding check stays on behind it
  app.use(guard.middleware(), hostHeaderValidation([...guard.hostNames]), express.json());
  app.post(MCP_HTTP_PATH, async (req: Request, res: Response) => {
    const server = createServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      if (!res.headersSent) {
        res.status(500).json({ jsonrpc: '2.0', error: { code: -32603, message: (error as Error).message }, id: null });
      }
    }
  });
  // stateless: no standalone event stream and no session to delete
  const notAllowed = (_req: Request, res: Response) =>
    res
      .status(405)
      .set('Allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
  app.get(MCP_HTTP_PATH, notAllowed);
  app.delete(MCP_HTTP_PATH, notAllowed);

  const http = createHttpServer(app);
  const port = await listenOn(http, address, options.port);
  return {
    url: `${serverUrl(address, port, options.allowedHosts)}${MCP_HTTP_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
