import {
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  listWorkspace,
  readWorkspaceFile,
  safeFileName,
  saveUploads,
} from '../../src/main/workspace/workspace-files.js';
import { AppendUploadRequestSchema, UPLOAD_CHUNK_BYTES, UploadIdsSchema } from '../../src/shared/contract.js';
import { stagedFile } from '../support/staged-file.js';

let root: string;
let workspace: string;
let outside: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'manus-ws-'));
  workspace = join(root, 'workspace');
  outside = join(root, 'outside');
  mkdirSync(workspace);
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.txt'), 'do not read');
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('workspace file access', () => {
  it('lists regular files newest first with their kind, never following links out', async () => {
    mkdirSync(join(workspace, 'out'));
    writeFileSync(join(workspace, 'old.csv'), 'a,b\n1,2\n');
    writeFileSync(join(workspace, 'out', 'chart.png'), 'png');
    utimesSync(join(workspace, 'old.csv'), new Date(2020, 1, 1), new Date(2020, 1, 1));
    symlinkSync(join(outside, 'secret.txt'), join(workspace, 'link.txt'));
    symlinkSync(outside, join(workspace, 'linked-folder'));
    const { files, truncated } = await listWorkspace(workspace);
    expect(files.map((file) => [file.path, file.kind])).toEqual([
      ['out/chart.png', 'image'],
      ['old.csv', 'csv'],
    ]);
    expect(truncated).toBe(false);
  });

  it('reads text and images for preview, and refuses .., absolute paths outside and symlinks out', async () => {
    writeFileSync(join(workspace, 'notes.md'), '# Notes');
    writeFileSync(join(workspace, 'dot.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    symlinkSync(join(outside, 'secret.txt'), join(workspace, 'link.txt'));

    const text = await readWorkspaceFile(workspace, 'notes.md');
    expect(text).toMatchObject({
      path: 'notes.md',
      kind: 'text',
      encoding: 'text',
      content: '# Notes',
      truncated: false,
    });
    const image = await readWorkspaceFile(workspace, '/workspace/dot.png');
    expect(image).toMatchObject({ kind: 'image', mimeType: 'image/png', encoding: 'base64' });
    expect(Buffer.from(image.content, 'base64')[1]).toBe(0x50);

    for (const path of ['../outside/secret.txt', join(outside, 'secret.txt'), 'link.txt', '/etc/passwd']) {
      await expect(readWorkspaceFile(workspace, path)).rejects.toMatchObject({ code: 'outside_workspace' });
    }
    await expect(readWorkspaceFile(workspace, 'missing.txt')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('cuts long text previews and refuses huge images', async () => {
    writeFileSync(join(workspace, 'big.log'), 'x'.repeat(600 * 1024));
    const preview = await readWorkspaceFile(workspace, 'big.log');
    expect(preview.truncated).toBe(true);
    expect(preview.content.length).toBe(512 * 1024);
    writeFileSync(join(workspace, 'huge.png'), Buffer.alloc(16 * 1024 * 1024));
    await expect(readWorkspaceFile(workspace, 'huge.png')).rejects.toMatchObject({ code: 'too_large' });
  });
});

describe('dropped files', () => {
  it('lands in uploads/ with safe names, never overwriting, where the agent was told they are', () => {
    const files = [
      stagedFile('../../evil.txt', 'evil'),
      stagedFile('data.csv', 'a,b'),
      stagedFile('data.csv', 'c,d'),
      stagedFile('..', 'dots'),
    ];
    const saved = saveUploads(workspace, files);
    expect(saved).toEqual(['uploads/evil.txt', 'uploads/data.csv', 'uploads/data (1).csv', 'uploads/_']);
    expect(readFileSync(join(workspace, 'uploads', 'data (1).csv'), 'utf8')).toBe('c,d');
    // a second drop of the same name keeps the first file
    expect(saveUploads(workspace, [stagedFile('data.csv', 'e,f')])).toEqual(['uploads/data (2).csv']);
    expect(readFileSync(join(workspace, 'uploads', 'data.csv'), 'utf8')).toBe('a,b');
  });

  it('refuses an uploads folder that is a link out of the workspace', () => {
    symlinkSync(outside, join(workspace, 'uploads'));
    expect(() => saveUploads(workspace, [stagedFile('a.txt', 'a')])).toThrow(/link/);
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('never writes through a link planted under the dropped name', () => {
    mkdirSync(join(workspace, 'uploads'));
    symlinkSync(join(outside, 'secret.txt'), join(workspace, 'uploads', 'data.csv'));
    symlinkSync(join(outside, 'planted.csv'), join(workspace, 'uploads', 'data (1).csv'));
    expect(saveUploads(workspace, [stagedFile('data.csv', 'mine')])).toEqual(['uploads/data (2).csv']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('do not read');
    expect(readdirSync(outside)).toEqual(['secret.txt']);
  });

  it('gives uploaded files and the uploads folder to the owner of the workspace folder', () => {
    // run as root here: the workspace belongs to an ordinary user
    chownSync(workspace, 1000, 1000);
    saveUploads(workspace, [stagedFile('a.txt', 'a')]);
    for (const path of ['uploads', 'uploads/a.txt']) {
      const stat = lstatSync(join(workspace, path));
      expect([stat.uid, stat.gid], path).toEqual([1000, 1000]);
    }
  });

  it('makes names safe and limits what travels over the contract', () => {
    expect(safeFileName('C:\\Users\\me\\report.pdf')).toBe('report.pdf');
    expect(safeFileName('.bashrc')).toBe('_bashrc');
    expect(safeFileName('a\u0000b?.txt')).toBe('a_b_.txt');
    const chunk = (data: string) => AppendUploadRequestSchema.safeParse({ uploadId: 'u', offset: 0, data }).success;
    expect(chunk('not base64!')).toBe(false);
    // one request carries one chunk at most: a file never travels whole
    expect(chunk('A'.repeat(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4))).toBe(true);
    expect(chunk('A'.repeat(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4 + 4))).toBe(false);
    expect(UploadIdsSchema.safeParse(Array.from({ length: 21 }, (_, index) => `u${index}`)).success).toBe(false);
  });
});
