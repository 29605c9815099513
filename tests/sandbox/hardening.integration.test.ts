import { chownSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxIdentity } from '../../src/main/sandbox/container-spec.js';
import { DockerSandbox } from '../../src/main/sandbox/docker-sandbox.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { SandboxSettingsSchema } from '../../src/shared/settings/sandbox-settings.js';
import { bashTool } from '../../src/main/tool/bash.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import type { TestToolContext } from '../support/tool-context.js';
import {
  bridgeGateway,
  call,
  closeSandbox,
  containerIdOf,
  hostListener,
  inspectContainer,
  sandboxContext,
} from './sandbox-test-kit.js';

const CONNECT_SCRIPT = (host: string, port: number): string =>
  [
    'import socket',
    'try:',
    `    s = socket.create_connection((${JSON.stringify(host)}, ${port}), timeout=3)`,
    '    print("REACHED", s.recv(100).decode().strip())',
    'except OSError as error:',
    '    print("BLOCKED", type(error).__name__, error)',
  ].join('\n');

describe('sandbox hardening (default settings)', () => {
  let ctx: TestToolContext;
  let listener: Awaited<ReturnType<typeof hostListener>>;

  beforeAll(async () => {
    ctx = sandboxContext({ settings: { sandbox: { memoryMb: 512, cpus: 0.5, pidsLimit: 64 } } });
    listener = await hostListener();
    await call(bashTool, { command: 'true' }, ctx);
  });
  afterAll(async () => {
    await listener.close();
    await closeSandbox(ctx);
  });

  it('runs as an unprivileged user', async () => {
    const result = await call(bashTool, { command: 'id -u; id -g' }, ctx);
    const [uid] = (result.output ?? '').split('\n');
    expect(Number(uid)).toBeGreaterThan(0);
    expect((await inspectContainer(ctx)).Config.User).not.toMatch(/^(0|root)(:|$)/);
  });

  it('has every capability dropped and no-new-privileges set', async () => {
    const result = await call(
      bashTool,
      { command: 'grep -E "^(CapEff|CapBnd|CapPrm|NoNewPrivs)" /proc/self/status' },
      ctx,
    );
    expect(result.output).toMatch(/CapPrm:\s+0{16}/);
    expect(result.output).toMatch(/CapEff:\s+0{16}/);
    expect(result.output).toMatch(/CapBnd:\s+0{16}/);
    expect(result.output).toMatch(/NoNewPrivs:\s+1/);
    const info = await inspectContainer(ctx);
    expect(info.HostConfig.CapDrop).toEqual(['ALL']);
    expect(info.HostConfig.SecurityOpt).toContain('no-new-privileges');
  });

  it('has a read-only root filesystem, a writable tmpfs /tmp and home, and /workspace as the only persistent writable path', async () => {
    const result = await call(
      bashTool,
      {
        command:
          'for p in /etc/x /usr/x /x /home/manus/x; do touch $p 2>&1 | tail -1; done; touch /tmp/t ~/h /workspace/w && echo writable',
      },
      ctx,
    );
    expect(result.output?.match(/Read-only file system|Permission denied/g)?.length).toBe(4);
    expect(result.output).toContain('writable');
    const mounts = await call(
      bashTool,
      {
        command:
          'awk \'$2=="/" || $2=="/tmp" || $2=="/workspace" || $2==ENVIRON["HOME"] {print $2, $3, $4}\' /proc/mounts',
      },
      ctx,
    );
    expect(mounts.output).toMatch(/^\/ overlay ro,/m);
    expect(mounts.output).toMatch(/^\/tmp tmpfs rw,nosuid,nodev/m);
    expect(mounts.output).toMatch(/^\/home\/sandbox tmpfs rw,nosuid,nodev/m);
    expect(mounts.output).toMatch(/^\/workspace \S+ rw/m);
    const info = await inspectContainer(ctx);
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.Mounts.map((mount) => mount.Destination)).toEqual(['/workspace']);
  });

  it('applies the memory, CPU and pids limits from the settings', async () => {
    const info = await inspectContainer(ctx);
    expect(info.HostConfig.Memory).toBe(512 * 1024 * 1024);
    expect(info.HostConfig.MemorySwap).toBe(512 * 1024 * 1024);
    expect(info.HostConfig.NanoCpus).toBe(500_000_000);
    expect(info.HostConfig.PidsLimit).toBe(64);
  });

  it('has no Docker socket or engine access inside', async () => {
    const result = await call(
      bashTool,
      {
        command:
          'ls -la /var/run/docker.sock /run/docker.sock 2>&1; grep -c docker.sock /proc/mounts; env | grep -c DOCKER_HOST',
      },
      ctx,
    );
    expect(result.output).toMatch(
      /docker\.sock': No such file or directory[\s\S]*docker\.sock': No such file or directory/,
    );
    expect(result.output).toMatch(/\n0\n0\n\[exit code 1\]$/);
  });

  it('cannot read host files outside the workspace', async () => {
    const secretDir = mkdtempSync(join(tmpdir(), 'manus-secret-'));
    writeFileSync(join(secretDir, 'secret.txt'), 'host secret');
    const result = await call(bashTool, { command: `cat ${secretDir}/secret.txt; cat /etc/shadow; ls /root` }, ctx);
    expect(result.output).not.toContain('host secret');
    expect(result.output).toContain('No such file or directory');
    expect(result.output).toMatch(/shadow: Permission denied/);
  });

  it('has no network: a listener on the host (bridge gateway and 127.0.0.1) is unreachable', async () => {
    const gateway = await bridgeGateway();
    const viaGateway = await call(pythonExecuteTool, { code: CONNECT_SCRIPT(gateway, listener.port) }, ctx);
    expect(viaGateway.output).toContain('BLOCKED');
    const viaLoopback = await call(pythonExecuteTool, { code: CONNECT_SCRIPT('127.0.0.1', listener.port) }, ctx);
    expect(viaLoopback.output).toContain('BLOCKED');
    const interfaces = await call(bashTool, { command: 'ls /sys/class/net' }, ctx);
    expect(interfaces.output).toBe('lo\n[exit code 0]');
    expect(listener.connections()).toBe(0);
    expect((await inspectContainer(ctx)).HostConfig.NetworkMode).toBe('none');
  });

  it('a fork bomb hits the pids limit while the engine stays responsive', async () => {
    const bomb = await call(
      bashTool,
      { command: 'bomb() { bomb | bomb & }; bomb; sleep 2; echo survived', timeout: 8 },
      ctx,
    );
    expect(bomb.output).toMatch(/Resource temporarily unavailable|retry/);
    const stats = await dockerClient()
      .getContainer(containerIdOf(ctx) ?? '')
      .stats({ stream: false });
    expect(stats.pids_stats?.current ?? 0).toBeLessThanOrEqual(64);
    await dockerClient().ping();
  });
});

describe('sandbox with network allowed in settings', () => {
  let ctx: TestToolContext;
  let listener: Awaited<ReturnType<typeof hostListener>>;

  beforeAll(async () => {
    ctx = sandboxContext({ settings: { sandbox: { network: true } } });
    listener = await hostListener();
  });
  afterAll(async () => {
    await listener.close();
    await closeSandbox(ctx);
  });

  it('reaches the host listener through the bridge (so the blocked case above is meaningful)', async () => {
    const result = await call(pythonExecuteTool, { code: CONNECT_SCRIPT(await bridgeGateway(), listener.port) }, ctx);
    expect(result.output).toContain('REACHED secret');
    expect(listener.connections()).toBe(1);
    expect((await inspectContainer(ctx)).HostConfig.NetworkMode).toBe('bridge');
  });
});

describe('sandbox identity for a non-root host user (the desktop case)', () => {
  it('runs as the host uid:gid, so files written in /workspace belong to that user', async () => {
    const hostUser = { uid: 4321, gid: 4321 };
    const workspace = mkdtempSync(join(tmpdir(), 'manus-user-ws-'));
    chownSync(workspace, hostUser.uid, hostUser.gid);
    expect(sandboxIdentity(workspace, hostUser)).toEqual({ user: '4321:4321', uid: 4321, gid: 4321 });
    const sandbox = new DockerSandbox({
      docker: dockerClient(),
      sessionId: `identity-test-${Date.now()}`,
      workspace,
      settings: SandboxSettingsSchema.parse({}),
      managedWorkspace: false,
      host: hostUser,
    });
    try {
      const { driver } = await sandbox.acquirePython();
      const result = await driver.run(
        'import os\nopen("mine.txt", "w").write("x")\nprint(os.getuid(), os.getgid(), os.path.expanduser("~"))',
        {
          timeoutMs: 10_000,
        },
      );
      await sandbox.release();
      expect(result.output).toBe('4321 4321 /home/sandbox\n');
      expect(statSync(join(workspace, 'mine.txt'))).toMatchObject({ uid: 4321, gid: 4321 });
    } finally {
      await sandbox.destroy();
    }
  });
});
