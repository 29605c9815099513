import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceRoot } from '../../src/main/workspace/workspace-root.js';

let base: string;
let workspace: string;
let root: WorkspaceRoot;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'manus-root-'));
  workspace = join(base, 'ws');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  writeFileSync(join(workspace, 'src', 'app.py'), 'print(1)\n');
  mkdirSync(join(base, 'outside'));
  root = WorkspaceRoot.open(workspace);
});

afterEach(() => {
  root.close();
  rmSync(base, { recursive: true, force: true });
});

describe('paths the model gives', () => {
  it('accepts /workspace/x, x and host paths inside the workspace, naming each the way the sandbox sees it', () => {
    for (const path of ['/workspace/src/app.py', 'src/app.py', './src//app.py', join(workspace, 'src', 'app.py')]) {
      expect(root.target(path), path).toMatchObject({ parts: ['src', 'app.py'], shown: '/workspace/src/app.py' });
    }
    expect(root.target('/workspace')).toMatchObject({ parts: [], relative: '', shown: '/workspace' });
    expect(root.target('src/../src/app.py').relative).toBe('src/app.py');
  });

  it('refuses .. out of the root, other absolute paths, and empty paths', () => {
    for (const path of ['..', '../ws/src/app.py', '/workspace/../etc/passwd', 'src/../../outside', '/etc/passwd']) {
      expect(() => root.target(path), path).toThrow(/is outside the workspace/);
    }
    expect(() => root.target('  ')).toThrow(/The path is empty/);
  });

  it('follows links that stay inside (relative, /workspace/... or host paths) and refuses links out or in a loop', () => {
    symlinkSync('src', join(workspace, 'relative'));
    symlinkSync('/workspace/src/app.py', join(workspace, 'as-sandbox-sees'));
    symlinkSync(join(workspace, 'src'), join(workspace, 'host-absolute'));
    symlinkSync('../outside', join(workspace, 'up'));
    symlinkSync('/etc', join(workspace, 'etc'));
    symlinkSync('loop-b', join(workspace, 'loop-a'));
    symlinkSync('loop-a', join(workspace, 'loop-b'));
    expect(root.target('relative/app.py').relative).toBe('src/app.py');
    expect(root.target('as-sandbox-sees').relative).toBe('src/app.py');
    expect(root.target('host-absolute/app.py').relative).toBe('src/app.py');
    expect(() => root.target('up')).toThrow(/leads outside the workspace through a symbolic link/);
    expect(() => root.target('etc/passwd')).toThrow(/leads outside the workspace through a symbolic link/);
    expect(() => root.target('loop-a')).toThrow(/too many symbolic links/);
  });

  it('operations on resolved parts never follow a link, even one that stays inside', () => {
    symlinkSync('src', join(workspace, 'alias'));
    expect(() => root.openFile(['alias', 'app.py'], 'read')).toThrow(
      /\/workspace\/alias is a symbolic link; it is not followed/,
    );
    expect(() => root.createFile(['alias', 'new.txt'], Buffer.from('x'))).toThrow(/symbolic link/);
    const file = root.openFile(['src', 'app.py'], 'read');
    expect(file.read().toString()).toBe('print(1)\n');
    file.close();
  });
});
