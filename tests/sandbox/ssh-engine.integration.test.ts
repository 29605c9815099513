import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, onTestFinished } from 'vitest';
import { chooseEngine } from '../../src/main/sandbox/engine-choice.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import { describeWithSecondEngine } from '../support/second-engine.js';
import { startSshDockerGateway, type SshDockerGateway } from '../support/ssh-docker-gateway.js';
import { call, sandboxContext, textOf } from './sandbox-test-kit.js';

const SAVED_ENV = ['DOCKER_CONFIG', 'SSH_AUTH_SOCK', 'HOME'] as const;

/** A Docker config folder where `docker context create big --docker host=…` and `docker context use big` ran. */
function contextFolder(host: string): string {
  const config = mkdtempSync(join(tmpdir(), 'manus-docker-config-'));
  const id = createHash('sha256').update('big').digest('hex');
  mkdirSync(join(config, 'contexts', 'meta', id), { recursive: true });
  writeFileSync(
    join(config, 'contexts', 'meta', id, 'meta.json'),
    JSON.stringify({ Name: 'big', Metadata: {}, Endpoints: { docker: { Host: host, SkipTLSVerify: false } } }),
  );
  writeFileSync(join(config, 'config.json'), JSON.stringify({ currentContext: 'big' }));
  return config;
}

describeWithSecondEngine('a remote engine over SSH (a Docker context, keys from ssh-agent)', (endpoint) => {
  let gateway: SshDockerGateway;
  let impostor: SshDockerGateway;
  const saved = Object.fromEntries(SAVED_ENV.map((name) => [name, process.env[name]]));

  beforeAll(async () => {
    const target = new URL(endpoint);
    const engine = { host: target.hostname, port: Number(target.port) };
    gateway = await startSshDockerGateway(engine);
    // another server on another port, with its own host key, but recorded under the real server's key
    impostor = await startSshDockerGateway(engine, { acceptAnyKey: true });
    const home = mkdtempSync(join(tmpdir(), 'manus-home-'));
    mkdirSync(join(home, '.ssh'));
    const knownHosts = join(home, '.ssh', 'known_hosts');
    const impostorAddress = impostor.knownHostsLine.split(' ')[0];
    const realKey = gateway.knownHostsLine.split(' ').slice(1).join(' ');
    writeFileSync(knownHosts, `${gateway.knownHostsLine}\n${impostorAddress} ${realKey}\n`);
    // hashed, as `HashKnownHosts yes` (Debian's default) leaves the file
    execFileSync('ssh-keygen', ['-q', '-H', '-f', knownHosts]);
    process.env.HOME = home;
    process.env.DOCKER_CONFIG = contextFolder(gateway.url);
    process.env.SSH_AUTH_SOCK = gateway.agentSocket;
  });
  afterAll(async () => {
    for (const name of SAVED_ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    await gateway?.close();
    await impostor?.close();
  });

  it('the current context reaches the engine through `docker system dial-stdio` over SSH', async () => {
    const choice = chooseEngine(undefined);
    expect(choice).toMatchObject({ source: 'context "big" (current context)', endpoint: gateway.url, local: false });
    const version = await dockerClient(choice).version();
    expect(version.Version).toMatch(/\d/);
    expect(gateway.commands).toContain('docker system dial-stdio');
  });

  it('python runs there in copy mode: it reads the user’s file and its result lands in the user’s folder', async () => {
    const ctx = sandboxContext();
    try {
      writeFileSync(join(ctx.workspace, 'in.txt'), 'over ssh');
      const result = await call(
        pythonExecuteTool,
        { code: 'text = open("in.txt").read()\nopen("out.txt", "w").write(text.upper())\ntext' },
        ctx,
      );
      expect(textOf(result)).toContain('over ssh');
      expect(readFileSync(join(ctx.workspace, 'out.txt'), 'utf8')).toBe('OVER SSH');
    } finally {
      await removeSessionSandbox(ctx.sessionId, dockerClient(chooseEngine(endpoint)));
    }
  });

  it('a server showing another host key than known_hosts records is refused before anything is sent', async () => {
    const ctx = sandboxContext({ settings: { sandbox: { engine: impostor.url } } });
    writeFileSync(join(ctx.workspace, 'private.csv'), 'salary\n100\n');
    // whatever a broken check let the impostor create goes, through the engine it relays to
    onTestFinished(() => removeSessionSandbox(ctx.sessionId, dockerClient(chooseEngine(endpoint))));
    const result = await call(pythonExecuteTool, { code: 'open("private.csv").read()' }, ctx);
    expect(impostor.commands).toEqual([]);
    expect(result.error).toMatch(/was refused: its SSH host key is not recorded in ~\/\.ssh\/known_hosts/);
    expect(result.error).toContain(`ssh -p ${new URL(impostor.url).port} manus@127.0.0.1`);
  });

  it('a server not in known_hosts at all is refused too', async () => {
    const stranger = await startSshDockerGateway({ host: '127.0.0.1', port: 1 }, { acceptAnyKey: true });
    try {
      const choice = chooseEngine(stranger.url, { ...process.env, SSH_AUTH_SOCK: stranger.agentSocket });
      await expect(dockerClient(choice).version()).rejects.toThrow(/Host denied/);
      expect(stranger.commands).toEqual([]);
    } finally {
      await stranger.close();
    }
  });
});
