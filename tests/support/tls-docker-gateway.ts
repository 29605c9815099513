import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';

/** PEM files of a certificate authority and what it signed, as `docker context create --docker ca=…,cert=…,key=…` takes them. */
export interface TlsMaterial {
  folder: string;
  ca: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate, made with openssl. */
export function makeTlsMaterial(): TlsMaterial {
  const folder = mkdtempSync(join(tmpdir(), 'manus-tls-'));
  const file = (name: string): string => join(folder, name);
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { stdio: 'ignore' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=manus test CA',
    '-keyout',
    file('ca-key.pem'),
    '-out',
    file('ca.pem'),
  );
  for (const [name, extensions] of [
    ['server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth'],
    ['client', 'extendedKeyUsage=clientAuth'],
  ] as const) {
    writeFileSync(file(`${name}.ext`), extensions);
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      file(`${name}-key.pem`),
      '-out',
      file(`${name}.csr`),
    );
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca-key.pem'),
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      file(`${name}.ext`),
      '-out',
      file(`${name}.pem`),
    );
  }
  return {
    folder,
    ca: file('ca.pem'),
    serverCert: file('server.pem'),
    serverKey: file('server-key.pem'),
    clientCert: file('client.pem'),
    clientKey: file('client-key.pem'),
  };
}

/**
 * A TLS endpoint on loopback in front of a Docker engine, as `dockerd --tlsverify` serves one: only clients holding a
 * certificate signed by the CA get through to the engine.
 */
export async function startTlsDockerGateway(
  engine: { host: string; port: number },
  material: TlsMaterial,
): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let relayed = 0;
  const server: Server = createServer(
    {
      cert: readFileSync(material.serverCert),
      key: readFileSync(material.serverKey),
      ca: readFileSync(material.ca),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (client) => {
      relayed++;
      const upstream = connect(engine.port, engine.host);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    },
  );
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `tcp://127.0.0.1:${port}`,
    connections: () => relayed,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(material.folder, { recursive: true, force: true });
    },
  };
}
