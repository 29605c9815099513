import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseEngine } from '../../src/main/sandbox/engine-choice.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { liveDockerSandbox, removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { bashTool } from '../../src/main/tool/bash.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import type { TestToolContext } from '../support/tool-context.js';
import { describeWithSecondEngine } from '../support/second-engine.js';
import { call, sandboxContext, textOf } from './sandbox-test-kit.js';

/** A loopback TCP relay to the engine: closing it is the engine going away, as a dropped network would. */
class EngineRelay {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    const server = this.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    const address = server.address();
    if (address && typeof address !== 'string') this.port = address.port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

describeWithSecondEngine('sandbox on a remote engine (copy mode, the second engine)', (endpoint) => {
  let ctx: TestToolContext;
  let remote: Docker;

  /** waits until the file exists in the sandbox's volume, read through the engine (not through the sync) */
  const waitForSandboxFile = async (name: string): Promise<void> => {
    const id = liveDockerSandbox(ctx.sessionId)?.containerId as string;
    for (;;) {
      const found = await remote
        .getContainer(id)
        .infoArchive({ path: `/workspace/${name}` })
        .then(
          () => true,
          () => false,
        );
      if (found) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  beforeAll(() => {
    remote = dockerClient(chooseEngine(endpoint));
    ctx = sandboxContext({ settings: { sandbox: { engine: endpoint } } });
  });
  afterAll(async () => {
    await removeSessionSandbox(ctx.sessionId, remote);
  });

  it('runs on that engine with the workspace in a volume there, not a bind mount', async () => {
    const result = await call(pythonExecuteTool, { code: 'import os\nos.getcwd()' }, ctx);
    expect(textOf(result)).toContain('/workspace');
    const id = liveDockerSandbox(ctx.sessionId)?.containerId;
    expect(id).toBeDefined();
    const mounts = (await remote.getContainer(id as string).inspect()).Mounts;
    expect(mounts.map((mount) => [mount.Type, mount.Destination])).toEqual([['volume', '/workspace']]);
    await expect(
      dockerClient()
        .getContainer(id as string)
        .inspect(),
    ).rejects.toThrow();
  });

  it('python writes a file, the host sees it as soon as the call returns', async () => {
    const result = await call(
      pythonExecuteTool,
      { code: 'import os\nos.makedirs("out", exist_ok=True)\nopen("out/report.txt", "w").write("42 rows")' },
      ctx,
    );
    expect(result.error).toBeUndefined();
    expect(readFileSync(join(ctx.workspace, 'out', 'report.txt'), 'utf8')).toBe('42 rows');
  });

  it('the host adds a file, python reads it on the next call, in the same warm interpreter', async () => {
    await call(pythonExecuteTool, { code: 'remembered = "still here"' }, ctx);
    writeFileSync(join(ctx.workspace, 'from-user.csv'), 'x\n7\n');
    const result = await call(
      pythonExecuteTool,
      { code: 'open("from-user.csv").read().split()[1] + " " + remembered' },
      ctx,
    );
    expect(textOf(result)).toContain('7 still here');
  });

  it('a deletion in either direction is carried', async () => {
    writeFileSync(join(ctx.workspace, 'drop-on-host.txt'), 'x');
    await call(bashTool, { command: 'echo gone > drop-in-sandbox.txt' }, ctx);
    expect(existsSync(join(ctx.workspace, 'drop-in-sandbox.txt'))).toBe(true);

    await call(bashTool, { command: 'rm drop-in-sandbox.txt' }, ctx);
    expect(existsSync(join(ctx.workspace, 'drop-in-sandbox.txt'))).toBe(false);

    rmSync(join(ctx.workspace, 'drop-on-host.txt'));
    const listed = await call(bashTool, { command: 'ls' }, ctx);
    expect(textOf(listed)).not.toContain('drop-on-host.txt');
    expect(textOf(listed)).toContain('from-user.csv');
  });

  it('what a background job writes after the last call comes back when the turn ends', async () => {
    await call(bashTool, { command: '(sleep 1; echo later > background.txt) &' }, ctx);
    expect(existsSync(join(ctx.workspace, 'background.txt'))).toBe(false);
    await waitForSandboxFile('background.txt');
    await liveDockerSandbox(ctx.sessionId)?.dispose();
    expect(readFileSync(join(ctx.workspace, 'background.txt'), 'utf8')).toBe('later\n');
    ctx = sandboxContext({
      workspace: ctx.workspace,
      sessionId: ctx.sessionId,
      settings: { sandbox: { engine: endpoint } },
    });
  });

  it('a link to a host path made in the sandbox is not written through, and the model is told', async () => {
    await call(bashTool, { command: 'ln -s /etc/passwd leak && ln -s /root rootdir' }, ctx);
    expect(existsSync(join(ctx.workspace, 'leak'))).toBe(false);
    const next = await call(bashTool, { command: 'true' }, ctx);
    expect(textOf(next)).toMatch(/Not brought back to the user's folder: \/workspace\/leak is a symbolic link/);
  });
});

describeWithSecondEngine('a remote engine that goes away mid-session', (endpoint) => {
  let relay: EngineRelay;
  let ctx: TestToolContext;

  beforeAll(async () => {
    const target = new URL(endpoint);
    relay = new EngineRelay({ host: target.hostname, port: Number(target.port) });
    await relay.open();
    ctx = sandboxContext({ settings: { sandbox: { engine: `tcp://127.0.0.1:${relay.port}` } } });
  });
  afterAll(async () => {
    await removeSessionSandbox(ctx.sessionId, dockerClient(chooseEngine(endpoint)));
    await relay.close();
  });

  it('gives a clear error naming the engine, and the session carries on when it is back, files kept', async () => {
    const before = await call(pythonExecuteTool, { code: 'open("kept.txt", "w").write("before")\n"ok"' }, ctx);
    expect(textOf(before)).toContain('ok');

    await relay.close();
    // a call that still finds the interpreter's cut stream reports it lost; the next one finds no engine
    let during = await call(pythonExecuteTool, { code: '1 + 1' }, ctx);
    if (!/not reachable/.test(during.error ?? '')) {
      expect(textOf(during)).toMatch(/state was lost/);
      during = await call(pythonExecuteTool, { code: '1 + 1' }, ctx);
    }
    expect(during.error).toMatch(/The Docker engine at tcp:\/\/127\.0\.0\.1:\d+ .*remote\) is not reachable/);
    expect(during.error).toMatch(/carries on when it answers again/);

    await relay.open();
    writeFileSync(join(ctx.workspace, 'while-away.txt'), 'written during the outage');
    const after = await call(
      pythonExecuteTool,
      { code: 'open("kept.txt").read() + " / " + open("while-away.txt").read()' },
      ctx,
    );
    expect(after.error).toBeUndefined();
    expect(textOf(after)).toContain('before / written during the outage');
    expect(readFileSync(join(ctx.workspace, 'kept.txt'), 'utf8')).toBe('before');
  });
});

describe('sandbox.workspace chosen explicitly', () => {
  it('copy on the local engine: the workspace is a volume there too, and files still reach the host folder', async () => {
    const ctx = sandboxContext({ settings: { sandbox: { workspace: 'copy' } } });
    try {
      writeFileSync(join(ctx.workspace, 'given.txt'), 'from the host');
      const result = await call(
        pythonExecuteTool,
        { code: 'open("made.txt", "w").write(open("given.txt").read().upper())' },
        ctx,
      );
      expect(result.error).toBeUndefined();
      expect(readFileSync(join(ctx.workspace, 'made.txt'), 'utf8')).toBe('FROM THE HOST');
      const id = liveDockerSandbox(ctx.sessionId)?.containerId as string;
      const mounts = (await dockerClient().getContainer(id).inspect()).Mounts;
      expect(mounts.map((mount) => mount.Type)).toEqual(['volume']);
    } finally {
      await removeSessionSandbox(ctx.sessionId);
    }
  });
});

describeWithSecondEngine('sandbox.workspace bind on an engine that shares this machine’s disk', (endpoint) => {
  it('bind-mounts the host folder even though the engine is reached over TCP', async () => {
    const remote = dockerClient(chooseEngine(endpoint));
    const ctx = sandboxContext({ settings: { sandbox: { engine: endpoint, workspace: 'bind' } } });
    try {
      const result = await call(pythonExecuteTool, { code: 'open("bound.txt", "w").write("direct")' }, ctx);
      expect(result.error).toBeUndefined();
      expect(readFileSync(join(ctx.workspace, 'bound.txt'), 'utf8')).toBe('direct');
      const id = liveDockerSandbox(ctx.sessionId)?.containerId as string;
      const mounts = (await remote.getContainer(id).inspect()).Mounts;
      expect(mounts.map((mount) => mount.Type)).toEqual(['bind']);
    } finally {
      await removeSessionSandbox(ctx.sessionId, remote);
    }
  });
});
