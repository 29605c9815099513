import { randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { runCommand } from '../../src/main/sandbox/container-command.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { chooseEngine } from '../../src/main/sandbox/engine-choice.js';
import { WorkspaceSync } from '../../src/main/sandbox/workspace-sync.js';
import { describeWithSecondEngine } from '../support/second-engine.js';

const IMAGE = 'manus-sandbox:latest';
const SANDBOX_USER = { user: '1000:1000', uid: 1000, gid: 1000 };
const MIB = 1024 * 1024;

describeWithSecondEngine('workspace sync through the archive API of a second engine', (endpoint) => {
  let docker: Docker;
  let container: Docker.Container;
  let volume: string;
  let workspace: string;
  let sync: WorkspaceSync;

  /** code in the sandbox, as the sandbox's user */
  const inSandbox = async (script: string): Promise<string> =>
    (
      await runCommand(docker, container, ['python3', '-c', script], {
        user: SANDBOX_USER.user,
        workingDir: '/workspace',
        timeoutMs: 60_000,
      })
    ).toString('utf8');

  beforeAll(async () => {
    docker = dockerClient(chooseEngine(endpoint));
    volume = `manus-sync-test-${randomBytes(4).toString('hex')}`;
    await docker.createVolume({ Name: volume });
    container = await docker.createContainer({
      Image: IMAGE,
      Cmd: ['sleep', 'infinity'],
      Entrypoint: [],
      User: SANDBOX_USER.user,
      HostConfig: {
        Mounts: [{ Type: 'volume', Source: volume, Target: '/workspace' }],
        ReadonlyRootfs: true,
        CapDrop: ['ALL'],
        NetworkMode: 'none',
      },
    });
    await container.start();
  });

  afterAll(async () => {
    await container?.remove({ force: true });
    await docker?.getVolume(volume).remove();
  });

  beforeEach(async () => {
    await inSandbox(
      'import shutil, os\nfor n in os.listdir("."): shutil.rmtree(n) if os.path.isdir(n) and not os.path.islink(n) else os.remove(n)',
    );
    workspace = mkdtempSync(join(tmpdir(), 'manus-sync-'));
    sync = new WorkspaceSync({ docker, workspace, identity: SANDBOX_USER });
  });

  it('fills the sandbox from the host folder, owned by the sandbox user, and brings back what python writes', async () => {
    mkdirSync(join(workspace, 'data'));
    writeFileSync(join(workspace, 'data', 'input.csv'), 'a,b\n1,2\n');
    writeFileSync(join(workspace, 'run.sh'), '#!/bin/sh\necho hi\n', { mode: 0o755 });
    const filled = await sync.pushHostChanges(container);
    expect(filled.sent.sort()).toEqual(['data', 'data/input.csv', 'run.sh']);

    const seen = await inSandbox(
      'import os\nprint(open("data/input.csv").read().splitlines()[1], os.access("run.sh", os.X_OK), ' +
        'os.stat("data").st_uid, os.stat("data/input.csv").st_uid)',
    );
    expect(seen.trim()).toBe('1,2 True 1000 1000');

    await inSandbox('open("data/output.txt", "w").write("sum=3\\n")');
    const back = await sync.pullSandboxChanges(container);
    expect(back.received).toEqual(['data/output.txt']);
    expect(readFileSync(join(workspace, 'data', 'output.txt'), 'utf8')).toBe('sum=3\n');
  });

  it('names with spaces, newlines and non-ASCII letters come back as they are', async () => {
    await sync.pushHostChanges(container);
    await inSandbox('import os\nos.makedirs("dossier été")\nopen("dossier été/a\\nb c.txt", "w").write("odd")');
    const pulled = await sync.pullSandboxChanges(container);
    expect(pulled.received).toEqual(['dossier été/a\nb c.txt']);
    expect(readFileSync(join(workspace, 'dossier été', 'a\nb c.txt'), 'utf8')).toBe('odd');
  });

  it('the host adds a file, python reads it; only that file moves', async () => {
    writeFileSync(join(workspace, 'one.txt'), 'one');
    writeFileSync(join(workspace, 'two.txt'), 'two');
    await sync.pushHostChanges(container);
    expect((await sync.pullSandboxChanges(container)).received).toEqual([]);

    writeFileSync(join(workspace, 'three.txt'), 'three');
    const pushed = await sync.pushHostChanges(container);
    expect(pushed.sent).toEqual(['three.txt']);
    expect(await inSandbox('print(open("three.txt").read())')).toBe('three\n');
    expect((await sync.pushHostChanges(container)).sent).toEqual([]);
  });

  it('deletions are carried both ways, folders included', async () => {
    mkdirSync(join(workspace, 'old', 'deep'), { recursive: true });
    writeFileSync(join(workspace, 'old', 'deep', 'x.txt'), 'x');
    writeFileSync(join(workspace, 'keep.txt'), 'k');
    writeFileSync(join(workspace, 'host-drops.txt'), 'd');
    await sync.pushHostChanges(container);

    await inSandbox('import shutil\nshutil.rmtree("old")');
    const pulled = await sync.pullSandboxChanges(container);
    expect(pulled.removedOnHost.sort()).toEqual(['old', 'old/deep', 'old/deep/x.txt']);
    expect(existsSync(join(workspace, 'old'))).toBe(false);

    rmSync(join(workspace, 'host-drops.txt'));
    const pushed = await sync.pushHostChanges(container);
    expect(pushed.removedInSandbox).toEqual(['host-drops.txt']);
    expect((await inSandbox('import os\nprint(sorted(os.listdir(".")))')).trim()).toBe("['keep.txt']");
  });

  it('only changed files move on the next call, judged by size and modification time', async () => {
    for (let index = 0; index < 20; index++) writeFileSync(join(workspace, `f${index}.txt`), `file ${index}`);
    await sync.pushHostChanges(container);
    await inSandbox(
      'open("f3.txt", "a").write(" more")\nopen("f7.txt", "w").write("file 7")\nimport os\nos.utime("f7.txt", (1, 1))',
    );
    const pulled = await sync.pullSandboxChanges(container);
    expect(pulled.received.sort()).toEqual(['f3.txt', 'f7.txt']);
    expect(readFileSync(join(workspace, 'f3.txt'), 'utf8')).toBe('file 3 more');

    writeFileSync(join(workspace, 'f11.txt'), 'file 11');
    utimesSync(join(workspace, 'f11.txt'), new Date(), new Date(Date.now() + 5_000));
    const pushed = await sync.pushHostChanges(container);
    expect(pushed.sent).toEqual(['f11.txt']);
    expect((await sync.pullSandboxChanges(container)).received).toEqual([]);
  });

  it('links and special files made in the sandbox are never written on the host, nor is anything through a host link', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'manus-sync-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'host secret');
    // a link the user has in their folder, pointing out of it: sent as nothing, and never written through
    symlinkSync(outside, join(workspace, 'linked'));
    const pushed = await sync.pushHostChanges(container);
    expect(pushed.notes.join('\n')).toMatch(/Not sent into the sandbox: linked is a symbolic link/);

    await inSandbox(
      [
        'import os',
        `os.symlink(${JSON.stringify(join(outside, 'secret.txt'))}, "leak.txt")`,
        `os.symlink(${JSON.stringify(outside)}, "outdir")`,
        'os.mkfifo("pipe")',
        'os.makedirs("linked")',
        'open("linked/planted.txt", "w").write("planted")',
      ].join('\n'),
    );
    const pulled = await sync.pullSandboxChanges(container);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('host secret');
    const notes = pulled.notes.join('\n');
    expect(notes).toMatch(/\/workspace\/leak\.txt is a symbolic link/);
    expect(notes).toMatch(/\/workspace\/outdir is a symbolic link/);
    expect(notes).toMatch(/\/workspace\/pipe is a special file/);
    expect(notes).toMatch(/linked/);
    expect(pulled.received).toEqual([]);
    expect(existsSync(join(workspace, 'leak.txt'))).toBe(false);
    expect(existsSync(join(workspace, 'pipe'))).toBe(false);
    expect(lstatSync(join(workspace, 'linked')).isSymbolicLink()).toBe(true);

    // a synced folder swapped for a link to a host path: its files go, the link is not made
    await inSandbox('import os\nos.makedirs("out")\nopen("out/a.txt", "w").write("a")');
    expect((await sync.pullSandboxChanges(container)).received).toEqual(['out/a.txt']);
    await inSandbox(`import os, shutil\nshutil.rmtree("out")\nos.symlink(${JSON.stringify(outside)}, "out")`);
    const swapped = await sync.pullSandboxChanges(container);
    expect(swapped.notes.join('\n')).toMatch(/\/workspace\/out is a symbolic link/);
    expect(existsSync(join(workspace, 'out'))).toBe(false);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it("an edit on both sides keeps the user's version and sends it in before the next call", async () => {
    writeFileSync(join(workspace, 'notes.md'), 'first');
    await sync.pushHostChanges(container);
    await inSandbox('open("notes.md", "w").write("from the sandbox")');
    writeFileSync(join(workspace, 'notes.md'), 'from the user');
    const pulled = await sync.pullSandboxChanges(container);
    expect(pulled.notes.join('\n')).toMatch(/changed both in the sandbox and in the user's folder/);
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('from the user');
    expect((await sync.pushHostChanges(container)).sent).toEqual(['notes.md']);
    expect(await inSandbox('print(open("notes.md").read())')).toBe('from the user\n');
  });

  it('a file over the size limit (a sparse one costs the sandbox nothing) is not copied either way, and is named', async () => {
    const hostSparse = join(workspace, 'host-huge.bin');
    writeFileSync(hostSparse, '');
    truncateSync(hostSparse, 2 * 1024 * MIB);
    const pushed = await sync.pushHostChanges(container);
    expect(pushed.sent).toEqual([]);
    expect(pushed.notes.join('\n')).toMatch(/Not sent into the sandbox: host-huge\.bin is 2048 MB, over the 1024 MB/);

    await inSandbox('open("huge.bin", "wb").truncate(2 * 1024 ** 3)\nopen("small.txt", "w").write("ok")');
    const pulled = await sync.pullSandboxChanges(container);
    expect(pulled.received).toEqual(['small.txt']);
    expect(pulled.notes.join('\n')).toMatch(
      /\/workspace\/huge\.bin is 2048 MB, over the 1024 MB .* stays in the sandbox/,
    );
    expect(existsSync(join(workspace, 'huge.bin'))).toBe(false);
    expect((await sync.pullSandboxChanges(container)).notes).toEqual([]);
  });

  it('a listing cut short (too many entries) brings back what it lists but deletes nothing on the host', async () => {
    const small = new WorkspaceSync({ docker, workspace, identity: SANDBOX_USER, maxListedEntries: 50 });
    for (let index = 0; index < 40; index++) writeFileSync(join(workspace, `keep-${index}.txt`), `${index}`);
    await small.pushHostChanges(container);
    await inSandbox('for i in range(30): open(f"more-{i}.txt", "w").write("m")');
    const pulled = await small.pullSandboxChanges(container);
    expect(pulled.notes.join('\n')).toMatch(/holds more than 50 entries/);
    expect(pulled.received.length).toBeLessThanOrEqual(50);
    expect(pulled.removedOnHost).toEqual([]);
    expect(readdirSync(workspace).filter((name) => name.startsWith('keep-'))).toHaveLength(40);
    small.close();
  });

  it('a 100 MB workspace syncs both ways, then one changed file is all that moves', async () => {
    for (let index = 0; index < 25; index++) writeFileSync(join(workspace, `in-${index}.bin`), randomBytes(2 * MIB));
    const pushed = await sync.pushHostChanges(container);
    expect(pushed.sent).toHaveLength(25);
    expect(await inSandbox('import os\nprint(sum(os.path.getsize(f) for f in os.listdir(".")))')).toBe(`${50 * MIB}\n`);

    await inSandbox('import os\nfor i in range(25): open(f"out-{i}.bin", "wb").write(os.urandom(2 * 1024 * 1024))');
    const pulled = await sync.pullSandboxChanges(container);
    expect(pulled.received).toHaveLength(25);
    const hostBytes = readdirSync(workspace).reduce((sum, name) => sum + lstatSync(join(workspace, name)).size, 0);
    expect(hostBytes).toBe(100 * MIB);
    const digest = 'import hashlib\nprint(hashlib.sha256(open("out-7.bin", "rb").read()).hexdigest())';
    const { createHash } = await import('node:crypto');
    expect((await inSandbox(digest)).trim()).toBe(
      createHash('sha256')
        .update(readFileSync(join(workspace, 'out-7.bin')))
        .digest('hex'),
    );

    await inSandbox('open("out-3.bin", "r+b").write(b"changed")');
    expect((await sync.pullSandboxChanges(container)).received).toEqual(['out-3.bin']);
    expect((await sync.pushHostChanges(container)).sent).toEqual([]);
  });
});
