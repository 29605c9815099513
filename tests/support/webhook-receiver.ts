import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A client's webhook on this machine: it keeps every request it gets. */
export interface Receiver {
  port: number;
  requests: { headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { port: 0, requests: [], close: () => Promise.resolve() };
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      receiver.requests.push({ headers: request.headers, body });
      response.end();
    });
  });
  // '::' takes 127.0.0.1, ::1 and ::ffff:127.0.0.1 on one port
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}
