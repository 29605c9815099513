import { createServer, type AddressInfo, type Server } from 'node:net';

/** A service on this computer that a hostile page or link wants to reach: it counts every TCP connection. */
export interface LoopbackTarget {
  port: number;
  connections: number;
  close(): Promise<void>;
}

/** Answers any request with a small "admin" page, on 127.0.0.1 and ::1 (one port). */
export async function startLoopbackTarget(): Promise<LoopbackTarget> {
  const body = '<title>Secret</title><p>router admin</p>';
  const target = { port: 0, connections: 0, close: () => Promise.resolve() };
  const server: Server = createServer((socket) => {
    target.connections++;
    socket.on('error', () => undefined);
    socket.once('data', () =>
      socket.end(
        `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      ),
    );
  });
  // '::' takes 127.0.0.1 and ::1 on one port
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  target.port = (server.address() as AddressInfo).port;
  target.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return target;
}
