import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chooseEngine } from '../../src/main/sandbox/engine-choice.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import { describeWithSecondEngine } from '../support/second-engine.js';
import { startSshDockerGateway, type SshDockerGateway } from '../support/ssh-docker-gateway.js';
import { call, sandboxContext, textOf } from './sandbox-test-kit.js';

describeWithSecondEngine('a remote engine over SSH (a Docker context, keys from ssh-agent)', (endpoint) => {
  let gateway: SshDockerGateway;
  const savedEnv = { DOCKER_CONFIG: process.env.DOCKER_CONFIG, SSH_AUTH_SOCK: process.env.SSH_AUTH_SOCK };

  beforeAll(async () => {
    const target = new URL(endpoint);
    gateway = await startSshDockerGateway({ host: target.hostname, port: Number(target.port) });
    // what `docker context create big --docker host=ssh://…` and `docker context use big` leave behind
    const config = mkdtempSync(join(tmpdir(), 'manus-docker-config-'));
    const id = createHash('sha256').update('big').digest('hex');
    mkdirSync(join(config, 'contexts', 'meta', id), { recursive: true });
    writeFileSync(
      join(config, 'contexts', 'meta', id, 'meta.json'),
      JSON.stringify({ Name: 'big', Metadata: {}, Endpoints: { docker: { Host: gateway.url, SkipTLSVerify: false } } }),
    );
    writeFileSync(join(config, 'config.json'), JSON.stringify({ currentContext: 'big' }));
    process.env.DOCKER_CONFIG = config;
    process.env.SSH_AUTH_SOCK = gateway.agentSocket;
  });
  afterAll(async () => {
    for (const [name, value] of Object.entries(savedEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await gateway?.close();
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
});
