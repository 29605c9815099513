import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { timingSafeEqual } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { waitFor } from './wait-for.js';

/**
 * A real SSH server on loopback standing in for a remote machine: it accepts one user's key (held by a real
 * ssh-agent) and answers `docker system dial-stdio`, the command the docker CLI and docker-modem run over SSH, by
 * relaying to a Docker engine's TCP endpoint. Everything else is refused.
 */
export interface SshDockerGateway {
  /** ssh://user@127.0.0.1:port */
  url: string;
  /** the agent's socket, for SSH_AUTH_SOCK */
  agentSocket: string;
  /** commands the clients ran, in order */
  commands: string[];
  /** the server's host key as a known_hosts line for its address: "[127.0.0.1]:port ssh-ed25519 AAAA…" */
  knownHostsLine: string;
  close(): Promise<void>;
}

export async function startSshDockerGateway(
  engine: { host: string; port: number },
  /** an impostor lets anyone in, to be handed whatever the client sends */
  options: { acceptAnyKey?: boolean } = {},
): Promise<SshDockerGateway> {
  const folder = mkdtempSync(join(tmpdir(), 'manus-ssh-'));
  const hostKey = join(folder, 'host_key');
  const userKey = join(folder, 'user_key');
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', hostKey]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', userKey]);
  const agentSocket = join(folder, 'agent.sock');
  const agent: ChildProcess = spawn('ssh-agent', ['-D', '-a', agentSocket], { stdio: 'ignore' });
  await waitFor(() => {
    try {
      execFileSync('ssh-add', [userKey], { env: { ...process.env, SSH_AUTH_SOCK: agentSocket }, stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  const allowed = ssh2.utils.parseKey(readFileSync(`${userKey}.pub`));
  if (allowed instanceof Error) throw allowed;
  const user = 'manus';
  const commands: string[] = [];
  const server = new ssh2.Server({ hostKeys: [readFileSync(hostKey)] }, (client) => {
    client.on('error', () => undefined);
    client.on('authentication', (auth) => {
      if (options.acceptAnyKey) return auth.accept();
      const keyMatches =
        auth.method === 'publickey' &&
        auth.username === user &&
        auth.key.algo === allowed.type &&
        sameBytes(auth.key.data, allowed.getPublicSSH()) &&
        (!auth.signature || allowed.verify(auth.blob as Buffer, auth.signature, auth.hashAlgo) === true);
      if (keyMatches) auth.accept();
      else auth.reject(['publickey']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('exec', (acceptExec, rejectExec, info) => {
          commands.push(info.command);
          if (info.command !== 'docker system dial-stdio') return rejectExec();
          const channel = acceptExec();
          const upstream = connect(engine.port, engine.host);
          upstream.on('error', () => channel.close());
          channel.on('close', () => upstream.destroy());
          upstream.on('close', () => channel.close());
          channel.pipe(upstream).pipe(channel);
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const [keyType, keyData] = readFileSync(`${hostKey}.pub`, 'utf8').split(' ');
  return {
    url: `ssh://${user}@127.0.0.1:${port}`,
    agentSocket,
    commands,
    knownHostsLine: `[127.0.0.1]:${port} ${keyType} ${keyData}`,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      agent.kill();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
