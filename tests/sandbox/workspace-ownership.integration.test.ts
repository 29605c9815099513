import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../../src/main/sandbox/docker-sandbox.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { SandboxSettingsSchema } from '../../src/shared/settings/sandbox-settings.js';
import { sessionWorkspaceDir } from '../../src/main/store/data-dir.js';
import { bashTool } from '../../src/main/tool/bash.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import type { TestToolContext } from '../support/tool-context.js';
import { call, closeSandbox, inspectContainer, sandboxContext } from './sandbox-test-kit.js';

interface Ownership {
  uid: number;
  gid: number;
  mode: number;
}

/** owner, group and mode of every entry under a folder (the folder included), links not followed */
function ownershipTree(root: string): Map<string, Ownership> {
  const tree = new Map<string, Ownership>();
  const visit = (relative: string): void => {
    const stat = lstatSync(join(root, relative));
    tree.set(relative, { uid: stat.uid, gid: stat.gid, mode: stat.mode });
    if (stat.isDirectory()) for (const name of readdirSync(join(root, relative))) visit(join(relative, name));
  };
  visit('.');
  return tree;
}

/** a host file only root may read: what a hand-back that follows links would re-own or open up */
function rootOnlyHostFile(): { path: string; before: Ownership } {
  const folder = mkdtempSync(join(tmpdir(), 'manus-host-secret-'));
  const path = join(folder, 'secret');
  writeFileSync(path, 'host secret', { mode: 0o600 });
  const stat = statSync(path);
  return { path, before: { uid: stat.uid, gid: stat.gid, mode: stat.mode } };
}

function ownershipOf(path: string): Ownership {
  const stat = statSync(path);
  return { uid: stat.uid, gid: stat.gid, mode: stat.mode };
}

const contexts: TestToolContext[] = [];

function session(options: Parameters<typeof sandboxContext>[0] = {}): TestToolContext {
  const ctx = sandboxContext(options);
  contexts.push(ctx);
  return ctx;
}

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => closeSandbox(ctx)));
});

describe('workspace ownership (host user root)', () => {
  it('a link the sandbox keeps flipping onto a host file never gets that file re-owned or opened up', async () => {
    const target = rootOnlyHostFile();
    const ctx = session();
    // x flips (by atomic renames) between a plain file and a link to the host file, as fast as the shell can
    const flipper =
      `(while :; do : > x.file; mv -f x.file x; ln -sfn ${target.path} x.link; mv -fT x.link x; done) ` +
      '>/dev/null 2>&1 & echo started';
    expect((await call(bashTool, { command: flipper }, ctx)).output).toContain('started');
    for (let round = 0; round < 40; round++) {
      await call(pythonExecuteTool, { code: `open("made-${round}.txt", "w").write("x")` }, ctx);
      await call(bashTool, { command: `mkdir -p d${round} && touch d${round}/f` }, ctx);
    }
    // one lstat: `ls -l` looks at x more than once, and x may flip between the looks
    const flips = await call(bashTool, { command: 'stat -c %F x' }, ctx);
    expect(flips.output).toMatch(/^(regular (empty )?file|symbolic link)\n/);
    expect(ownershipOf(target.path)).toEqual(target.before);
    expect(readFileSync(target.path, 'utf8')).toBe('host secret');
  });

  it('a folder the user chose keeps every owner, group and mode; what the agent makes there is the folder owner’s', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'manus-chosen-'));
    mkdirSync(join(folder, '.ssh'), { mode: 0o700 });
    writeFileSync(join(folder, '.ssh', 'id_rsa'), 'PRIVATE KEY', { mode: 0o600 });
    writeFileSync(join(folder, 'notes.txt'), 'notes', { mode: 0o644 });
    mkdirSync(join(folder, 'src'), { mode: 0o755 });
    writeFileSync(join(folder, 'src', 'main.py'), 'print(1)', { mode: 0o640 });
    writeFileSync(join(folder, 'root-owned.txt'), 'root', { mode: 0o644 });
    for (const path of [folder, '.ssh', '.ssh/id_rsa', 'notes.txt', 'src', 'src/main.py'])
      chownSync(path === folder ? folder : join(folder, path), 1234, 1234);
    chmodSync(folder, 0o755);
    const before = ownershipTree(folder);

    const ctx = session({ workspace: folder });
    const python = await call(
      pythonExecuteTool,
      {
        code: 'import os\nos.makedirs("out/deep")\nopen("out/deep/result.csv", "w").write("1,2")\nprint(os.getuid(), os.getgid())',
      },
      ctx,
    );
    expect(python.output).toBe('1234 1234');
    const bash = await call(bashTool, { command: 'echo hi > made-by-bash.txt && mkdir build && id -u' }, ctx);
    expect(bash.output).toBe('1234\n[exit code 0]');
    const sshKey = await call(bashTool, { command: 'cat .ssh/id_rsa' }, ctx);
    expect(sshKey.output).toContain('PRIVATE KEY');

    const after = ownershipTree(folder);
    for (const [path, ownership] of before) expect({ path, ...after.get(path) }).toEqual({ path, ...ownership });
    const created = [...after.keys()].filter((path) => !before.has(path));
    expect(created.sort()).toEqual(['build', 'made-by-bash.txt', 'out', 'out/deep', 'out/deep/result.csv']);
    for (const path of created) {
      const made = after.get(path);
      expect({ path, uid: made?.uid, gid: made?.gid }).toEqual({ path, uid: 1234, gid: 1234 });
      // nothing the agent makes is writable by the folder's group or by others
      expect(((made?.mode ?? 0) & 0o022).toString(8)).toBe('0');
    }
  });

  it('the app’s own workspace belongs to the image user: the sandbox runs as 1000 and the app reads what it makes', async () => {
    const ctx = session();
    expect(ownershipOf(ctx.workspace)).toMatchObject({ uid: 1000, gid: 1000 });
    const result = await call(bashTool, { command: 'id -u; id -g; echo made > made.txt' }, ctx);
    expect(result.output).toBe('1000\n1000\n[exit code 0]');
    expect(ownershipOf(join(ctx.workspace, 'made.txt'))).toMatchObject({ uid: 1000, gid: 1000 });
    expect(readFileSync(join(ctx.workspace, 'made.txt'), 'utf8')).toBe('made\n');
  });

  it('an app workspace still root-owned from before gets only its own folder given to the image user', async () => {
    const sessionId = `ownership-old-${Date.now()}`;
    const workspace = sessionWorkspaceDir(mkdtempSync(join(tmpdir(), 'manus-data-')), sessionId);
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'old.txt'), 'from before', { mode: 0o644 });
    const sandbox = new DockerSandbox({
      docker: dockerClient(),
      sessionId,
      workspace,
      settings: SandboxSettingsSchema.parse({}),
      managedWorkspace: true,
    });
    try {
      const { driver } = await sandbox.acquireShell();
      const turn = await driver.run('id -u; cat old.txt; echo; echo new > new.txt', { maxWaitMs: 10_000 });
      await sandbox.release();
      expect(turn.output).toBe('1000\nfrom before\n');
      expect(ownershipOf(workspace)).toMatchObject({ uid: 1000, gid: 1000 });
      expect(ownershipOf(join(workspace, 'old.txt'))).toEqual({ uid: 0, gid: 0, mode: 0o100644 });
      expect(ownershipOf(join(workspace, 'new.txt'))).toMatchObject({ uid: 1000, gid: 1000 });
    } finally {
      await sandbox.destroy();
    }
  });

  it('a root-owned folder the user chose runs as uid 0 with no capability, and nothing in it changes', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'manus-root-chosen-'));
    writeFileSync(join(folder, 'config.txt'), 'config', { mode: 0o600 });
    const before = ownershipTree(folder);
    const ctx = session({ workspace: folder });
    const result = await call(
      bashTool,
      { command: 'id -u; grep -E "^(CapEff|CapBnd|NoNewPrivs)" /proc/self/status; touch made.txt' },
      ctx,
    );
    expect(result.output).toMatch(/^0\nCapEff:\s+0{16}\nCapBnd:\s+0{16}\nNoNewPrivs:\s+1\n\[exit code 0\]$/);
    const after = ownershipTree(folder);
    for (const [path, ownership] of before) expect({ path, ...after.get(path) }).toEqual({ path, ...ownership });
    expect(after.get('made.txt')).toMatchObject({ uid: 0, gid: 0 });
    expect((await inspectContainer(ctx)).HostConfig.ReadonlyRootfs).toBe(true);
  });

  it('a container made for another uid is replaced, not reused', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'manus-rechowned-'));
    chownSync(folder, 1234, 1234);
    const sessionId = `ownership-replace-${Date.now()}`;
    const options = {
      docker: dockerClient(),
      sessionId,
      workspace: folder,
      settings: SandboxSettingsSchema.parse({}),
      managedWorkspace: false,
    };
    const first = new DockerSandbox(options);
    const second = new DockerSandbox(options);
    try {
      const before = await (await first.acquireShell()).driver.run('id -u', { maxWaitMs: 10_000 });
      await first.release();
      expect(before.output).toBe('1234\n');
      const firstContainer = first.containerId;
      await first.dispose();
      chownSync(folder, 2345, 2345);
      const acquired = await second.acquireShell();
      const after = await acquired.driver.run('id -u', { maxWaitMs: 10_000 });
      await second.release();
      expect(after.output).toBe('2345\n');
      expect(second.containerId).not.toBe(firstContainer);
      expect(acquired.notes.join('\n')).not.toContain('Reconnected');
    } finally {
      await Promise.all([first.destroy(), second.destroy()]);
    }
  });
});
