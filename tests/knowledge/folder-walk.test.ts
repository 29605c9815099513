import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WALK_RULES, walkFolder } from '../../src/main/knowledge/folder-walk.js';

describe('walking a folder to index', () => {
  it('leaves out hidden files, skipped folders and what .gitignore names; lists links out, FIFOs and big files', async () => {
    const root = mkdtempSync(join(tmpdir(), 'manus-walk-'));
    const outside = mkdtempSync(join(tmpdir(), 'manus-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'secret');
    mkdirSync(join(root, 'sub/build-output'), { recursive: true });
    mkdirSync(join(root, 'node_modules/pkg'), { recursive: true });
    mkdirSync(join(root, '.hidden'));
    writeFileSync(join(root, 'a.md'), 'a');
    writeFileSync(join(root, '.env'), 'KEY=1');
    writeFileSync(join(root, '.hidden/x.md'), 'x');
    writeFileSync(join(root, 'node_modules/pkg/readme.md'), 'r');
    writeFileSync(join(root, 'sub/.gitignore'), '*.log\nbuild-output/\n');
    writeFileSync(join(root, 'sub/keep.txt'), 'k');
    writeFileSync(join(root, 'sub/noise.log'), 'n');
    writeFileSync(join(root, 'sub/build-output/out.txt'), 'o');
    writeFileSync(join(root, 'big.pdf'), '');
    truncateSync(join(root, 'big.pdf'), 65 * 1024 * 1024);
    symlinkSync(join(outside, 'secret.txt'), join(root, 'leak.txt'));
    symlinkSync(join(root, 'a.md'), join(root, 'alias.md'));
    execFileSync('mkfifo', [join(root, 'pipe')]);

    const entries = await walkFolder(root, DEFAULT_WALK_RULES);
    expect(entries.filter((entry) => entry.kind === 'file').map((entry) => entry.path)).toEqual([
      'a.md',
      'sub/keep.txt',
    ]);
    expect(entries.filter((entry) => entry.kind === 'unreadable')).toEqual([
      { kind: 'unreadable', path: 'big.pdf', reason: '65 MB, over the 64 MB limit' },
      { kind: 'unreadable', path: 'leak.txt', reason: 'a link that leads out of the folder (not followed)' },
      { kind: 'unreadable', path: 'pipe', reason: 'not a regular file (a FIFO)' },
    ]);

    const everything = await walkFolder(root, { ...DEFAULT_WALK_RULES, includeHidden: true, respectGitignore: false });
    expect(everything.map((entry) => entry.path)).toEqual(
      expect.arrayContaining(['.env', '.hidden/x.md', 'sub/noise.log', 'sub/build-output/out.txt']),
    );
  });
});
