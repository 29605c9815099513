import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { chooseEngine, EngineChoiceError } from '../../src/main/sandbox/engine-choice.js';
import { describeWithSecondEngine } from '../support/second-engine.js';
import { makeTlsMaterial, startTlsDockerGateway } from '../support/tls-docker-gateway.js';

/** A Docker config folder like ~/.docker, with contexts as `docker context create` writes them. */
function dockerConfig(
  current?: string,
  contexts: Record<string, { host: string; tls?: boolean; skip?: boolean }> = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'manus-docker-config-'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify(current ? { currentContext: current } : {}));
  for (const [name, context] of Object.entries(contexts)) {
    const id = createHash('sha256').update(name).digest('hex');
    mkdirSync(join(dir, 'contexts', 'meta', id), { recursive: true });
    writeFileSync(
      join(dir, 'contexts', 'meta', id, 'meta.json'),
      JSON.stringify({
        Name: name,
        Metadata: {},
        Endpoints: { docker: { Host: context.host, SkipTLSVerify: context.skip ?? false } },
      }),
    );
    if (context.tls) {
      const tlsDir = join(dir, 'contexts', 'tls', id, 'docker');
      mkdirSync(tlsDir, { recursive: true });
      for (const file of ['ca.pem', 'cert.pem', 'key.pem']) writeFileSync(join(tlsDir, file), `${name} ${file}`);
    }
  }
  return dir;
}

/** which engine answered: each keeps its data in its own root (engines started from one /etc/docker share their ID) */
async function engineId(options: Docker.DockerOptions): Promise<string> {
  const info = (await new Docker(options).info()) as { DockerRootDir: string };
  return info.DockerRootDir;
}

describe('engine choice, as the docker CLI makes it', () => {
  it('without DOCKER_HOST or a context: the local socket, which the first engine answers', async () => {
    const choice = chooseEngine(undefined, { HOME: mkdtempSync(join(tmpdir(), 'manus-home-')) });
    expect(choice).toMatchObject({ source: 'default socket', endpoint: 'unix:///var/run/docker.sock', local: true });
    expect(await engineId(choice.options)).toMatch(/\S/);
  });

  it('DOCKER_HOST beats DOCKER_CONTEXT, which beats the current context; the setting beats them all', () => {
    const config = dockerConfig('a', { a: { host: 'tcp://a.example:2375' }, b: { host: 'tcp://b.example:2375' } });
    expect(chooseEngine(undefined, { DOCKER_CONFIG: config }).endpoint).toBe('tcp://a.example:2375');
    expect(chooseEngine(undefined, { DOCKER_CONFIG: config, DOCKER_CONTEXT: 'b' }).source).toBe(
      'context "b" (DOCKER_CONTEXT)',
    );
    const withHost = { DOCKER_CONFIG: config, DOCKER_CONTEXT: 'b', DOCKER_HOST: 'tcp://h.example:2375' };
    expect(chooseEngine(undefined, withHost)).toMatchObject({ source: 'DOCKER_HOST', local: false });
    expect(chooseEngine('a', withHost).endpoint).toBe('tcp://a.example:2375');
    expect(chooseEngine('ssh://me@big.example', withHost).endpoint).toBe('ssh://me@big.example');
    expect(chooseEngine('default', withHost)).toMatchObject({ endpoint: 'unix:///var/run/docker.sock', local: true });
  });

  it('a context with TLS material talks https with its CA, certificate and key', () => {
    const config = dockerConfig('secure', { secure: { host: 'tcp://big.example:2376', tls: true } });
    const { options, local } = chooseEngine(undefined, { DOCKER_CONFIG: config });
    expect(local).toBe(false);
    expect(options).toMatchObject({ protocol: 'https', host: 'big.example', port: '2376' });
    expect(String(options.ca)).toBe('secure ca.pem');
    expect(String(options.cert)).toBe('secure cert.pem');
    expect(String(options.key)).toBe('secure key.pem');
  });

  it('DOCKER_TLS_VERIFY takes the files from DOCKER_CERT_PATH', () => {
    const certs = mkdtempSync(join(tmpdir(), 'manus-certs-'));
    for (const file of ['ca.pem', 'cert.pem', 'key.pem']) writeFileSync(join(certs, file), file);
    const { options } = chooseEngine(undefined, {
      DOCKER_HOST: 'tcp://big.example',
      DOCKER_TLS_VERIFY: '1',
      DOCKER_CERT_PATH: certs,
    });
    expect(options).toMatchObject({ protocol: 'https', port: '2376' });
    expect(String(options.key)).toBe('key.pem');
  });

  it('an SSH context goes through the ssh agent, with the user and port of its URL', () => {
    const config = dockerConfig('big', { big: { host: 'ssh://ana@big.example:2222' } });
    const choice = chooseEngine(undefined, { DOCKER_CONFIG: config, SSH_AUTH_SOCK: '/run/agent.sock' });
    expect(choice).toMatchObject({ source: 'context "big" (current context)', local: false });
    expect(choice.options).toMatchObject({
      protocol: 'ssh',
      host: 'big.example',
      port: '2222',
      username: 'ana',
      sshOptions: { agent: '/run/agent.sock' },
    });
    expect(chooseEngine('ssh://big.example', {}).options).toMatchObject({ port: '22' });
  });

  it('a missing context, one that skips TLS verification, or a bad URL is refused with what to do', () => {
    const config = dockerConfig(undefined, { loose: { host: 'tcp://x.example:2376', skip: true } });
    expect(() => chooseEngine('nowhere', { DOCKER_CONFIG: config })).toThrow(/context "nowhere" does not exist/);
    expect(() => chooseEngine('loose', { DOCKER_CONFIG: config })).toThrow(EngineChoiceError);
    expect(() => chooseEngine('ftp://x.example', {})).toThrow(/not a Docker endpoint/);
  });
});

describeWithSecondEngine('engine choice reaching the second engine', (endpoint) => {
  it('DOCKER_HOST=tcp://...:2376 without TLS variables talks plain http, like the CLI', async () => {
    const choice = chooseEngine(undefined, { DOCKER_HOST: endpoint });
    expect(choice.options.protocol).toBe('http');
    const local = await engineId(chooseEngine(undefined, {}).options);
    expect(await engineId(choice.options)).not.toBe(local);
  });

  it('a context with TLS material reaches an engine that demands client certificates; without them it is refused', async () => {
    const target = new URL(endpoint);
    const material = makeTlsMaterial();
    const gateway = await startTlsDockerGateway({ host: target.hostname, port: Number(target.port) }, material);
    try {
      const config = dockerConfig('secure', { secure: { host: gateway.url } });
      const id = createHash('sha256').update('secure').digest('hex');
      const tlsDir = join(config, 'contexts', 'tls', id, 'docker');
      mkdirSync(tlsDir, { recursive: true });
      copyFileSync(material.ca, join(tlsDir, 'ca.pem'));
      copyFileSync(material.clientCert, join(tlsDir, 'cert.pem'));
      copyFileSync(material.clientKey, join(tlsDir, 'key.pem'));
      const choice = chooseEngine(undefined, { DOCKER_CONFIG: config });
      expect(choice.options.protocol).toBe('https');
      expect(await engineId(choice.options)).toBe(await engineId(chooseEngine(endpoint, {}).options));

      // DOCKER_TLS_VERIFY with the CA but no client certificate: the engine side refuses the handshake
      const certless = mkdtempSync(join(tmpdir(), 'manus-certs-'));
      copyFileSync(material.ca, join(certless, 'ca.pem'));
      const withoutCert = chooseEngine(undefined, {
        DOCKER_HOST: gateway.url,
        DOCKER_TLS_VERIFY: '1',
        DOCKER_CERT_PATH: certless,
      });
      const before = gateway.connections();
      await expect(engineId(withoutCert.options)).rejects.toThrow();
      expect(gateway.connections()).toBe(before);
    } finally {
      await gateway.close();
    }
  });

  it('the current context of ~/.docker/config.json leads to its engine', async () => {
    const config = dockerConfig('second', { second: { host: endpoint } });
    const choice = chooseEngine(undefined, { DOCKER_CONFIG: config });
    expect(choice).toMatchObject({ source: 'context "second" (current context)', endpoint, local: false });
    expect(await engineId(choice.options)).toBe(await engineId(chooseEngine(endpoint, {}).options));
    expect(await engineId(choice.options)).not.toBe(await engineId(chooseEngine(undefined, {}).options));
  });
});
