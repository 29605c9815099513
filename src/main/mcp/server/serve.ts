import { timingSafeEqual } from 'node:crypto';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';

/** Only this machine may call: the tools run code and read files. */
const LOOPBACK = '127.0.0.1';
export const MCP_HTTP_PATH = '/mcp';

export async function serveMcpOverStdio(server: Server): Promise<void> {
  await server.connect(new StdioServerTransport());
}

export interface McpHttpServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Streamable HTTP on 127.0.0.1, stateless (one server instance per request, so any number of clients),
 * every request carrying `Authorization: Bearer <token>`.
 */
export async function serveMcpOverHttp(
  createServer: () => Server,
  options: { port: number; token: string },
): Promise<McpHttpServer> {
  const app = createMcpExpressApp({ host: LOOPBACK });
  app.use(MCP_HTTP_PATH, requireBearer(options.token));
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

  const http = await new Promise<HttpServer>((resolve, reject) => {
    const listening = app.listen(options.port, LOOPBACK, (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const port = (http.address() as AddressInfo).port;
  return {
    url: `http://${LOOPBACK}:${port}${MCP_HTTP_PATH}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function requireBearer(token: string) {
  const expected = Buffer.from(token);
  return (req: Request, res: Response, next: NextFunction) => {
    const given = Buffer.from(/^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next();
    res
      .status(401)
      .set('WWW-Authenticate', 'Bearer realm="manus-mcp"')
      .json({ jsonrpc: '2.0', error: { code: -32001, message: 'Missing or wrong bearer token.' }, id: null });
  };
}
