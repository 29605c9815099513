import {
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { strReplaceEditorTool } from '../../src/main/tool/str-replace-editor.js';
import { createToolContext, type TestToolContext } from '../support/tool-context.js';
import { call } from './sandbox-test-kit.js';

describe('str_replace_editor on the session workspace', () => {
  let ctx: TestToolContext;
  let outside: string;

  beforeEach(() => {
    ctx = createToolContext({ settings: { agent: { maxObserve: 3000 } } });
    outside = mkdtempSync(join(tmpdir(), 'manus-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'outside secret\n');
  });

  it('creates a file from /workspace or relative paths, refusing to overwrite', async () => {
    const created = await call(
      strReplaceEditorTool,
      { command: 'create', path: '/workspace/src/app.py', file_text: 'print("hi")\n' },
      ctx,
    );
    expect(created.output).toBe('Created /workspace/src/app.py (2 lines).');
    expect(readFileSync(join(ctx.workspace, 'src/app.py'), 'utf8')).toBe('print("hi")\n');
    const again = await call(strReplaceEditorTool, { command: 'create', path: 'src/app.py', file_text: 'x' }, ctx);
    expect(again.error).toMatch(/already exists; create does not overwrite/);
    expect(readFileSync(join(ctx.workspace, 'src/app.py'), 'utf8')).toBe('print("hi")\n');
  });

  it('views a file with numbered lines and a view_range', async () => {
    writeFileSync(join(ctx.workspace, 'lines.txt'), ['alpha', 'beta', 'gamma', 'delta'].join('\n'));
    const whole = await call(strReplaceEditorTool, { command: 'view', path: 'lines.txt' }, ctx);
    expect(whole.output).toBe('/workspace/lines.txt:\n     1\talpha\n     2\tbeta\n     3\tgamma\n     4\tdelta');
    const part = await call(
      strReplaceEditorTool,
      { command: 'view', path: '/workspace/lines.txt', view_range: [2, 3] },
      ctx,
    );
    expect(part.output).toBe('/workspace/lines.txt:\n     2\tbeta\n     3\tgamma');
    const toEnd = await call(strReplaceEditorTool, { command: 'view', path: 'lines.txt', view_range: [3, -1] }, ctx);
    expect(toEnd.output).toBe('/workspace/lines.txt:\n     3\tgamma\n     4\tdelta');
    const past = await call(strReplaceEditorTool, { command: 'view', path: 'lines.txt', view_range: [9, 10] }, ctx);
    expect(past.error).toMatch(/starts at line 9 but .* has 4 lines/);
  });

  it('views a folder two levels deep, hidden entries left out', async () => {
    mkdirSync(join(ctx.workspace, 'a/b/c'), { recursive: true });
    writeFileSync(join(ctx.workspace, 'a/b/c/deep.txt'), '');
    writeFileSync(join(ctx.workspace, 'a/one.txt'), '');
    writeFileSync(join(ctx.workspace, '.hidden'), '');
    const listing = await call(strReplaceEditorTool, { command: 'view', path: '/workspace' }, ctx);
    expect(listing.output).toBe(
      'Files and folders in /workspace, 2 levels deep (hidden ones left out):\na/\n  b/\n  one.txt',
    );
  });

  it('clips a big file with a note pointing to view_range', async () => {
    writeFileSync(join(ctx.workspace, 'big.txt'), Array.from({ length: 2000 }, (_, i) => `row ${i + 1}`).join('\n'));
    const result = await call(strReplaceEditorTool, { command: 'view', path: 'big.txt' }, ctx);
    expect(result.output?.length).toBeLessThan(3300);
    expect(result.output).toMatch(/file clipped: showing lines 1-\d+ of 2000\. Use view_range to see the rest\./);
  });

  it('str_replace needs exactly one match and says how many it found', async () => {
    writeFileSync(join(ctx.workspace, 'code.py'), 'x = 1\ny = 2\nx = 1\n');
    const twice = await call(
      strReplaceEditorTool,
      { command: 'str_replace', path: 'code.py', old_str: 'x = 1', new_str: 'x = 3' },
      ctx,
    );
    expect(twice.error).toMatch(/occurs 2 times .* \(lines 1, 3\); nothing was changed/);
    const none = await call(
      strReplaceEditorTool,
      { command: 'str_replace', path: 'code.py', old_str: 'z = 9', new_str: '' },
      ctx,
    );
    expect(none.error).toMatch(/was not found/);
    const once = await call(
      strReplaceEditorTool,
      { command: 'str_replace', path: 'code.py', old_str: 'y = 2', new_str: 'y = 20\nw = 0' },
      ctx,
    );
    expect(once.output).toContain('Edited /workspace/code.py');
    expect(once.output).toContain('     2\ty = 20');
    expect(readFileSync(join(ctx.workspace, 'code.py'), 'utf8')).toBe('x = 1\ny = 20\nw = 0\nx = 1\n');
  });

  it('inserts after a line and undoes edits one by one, per file', async () => {
    writeFileSync(join(ctx.workspace, 'list.txt'), 'one\ntwo\nthree');
    writeFileSync(join(ctx.workspace, 'other.txt'), 'untouched');
    await call(
      strReplaceEditorTool,
      { command: 'insert', path: 'list.txt', insert_line: 1, new_str: 'one and a half' },
      ctx,
    );
    await call(strReplaceEditorTool, { command: 'insert', path: 'list.txt', insert_line: 0, new_str: 'zero' }, ctx);
    expect(readFileSync(join(ctx.workspace, 'list.txt'), 'utf8')).toBe('zero\none\none and a half\ntwo\nthree');
    const noHistory = await call(strReplaceEditorTool, { command: 'undo_edit', path: 'other.txt' }, ctx);
    expect(noHistory.error).toMatch(/no edit of \/workspace\/other.txt to undo/);
    await call(strReplaceEditorTool, { command: 'undo_edit', path: 'list.txt' }, ctx);
    expect(readFileSync(join(ctx.workspace, 'list.txt'), 'utf8')).toBe('one\none and a half\ntwo\nthree');
    await call(strReplaceEditorTool, { command: 'undo_edit', path: 'list.txt' }, ctx);
    expect(readFileSync(join(ctx.workspace, 'list.txt'), 'utf8')).toBe('one\ntwo\nthree');
    const past = await call(
      strReplaceEditorTool,
      { command: 'insert', path: 'list.txt', insert_line: 10, new_str: 'x' },
      ctx,
    );
    expect(past.error).toMatch(/past the end/);
  });

  it('undo of a create removes the file', async () => {
    await call(strReplaceEditorTool, { command: 'create', path: 'temp.txt', file_text: 'x' }, ctx);
    const undone = await call(strReplaceEditorTool, { command: 'undo_edit', path: 'temp.txt' }, ctx);
    expect(undone.output).toMatch(/file was removed/);
    expect(existsSync(join(ctx.workspace, 'temp.txt'))).toBe(false);
  });

  it('refuses paths outside the workspace: .., other absolute paths, symlinks out', async () => {
    symlinkSync(outside, join(ctx.workspace, 'escape'));
    symlinkSync(join(outside, 'secret.txt'), join(ctx.workspace, 'secret-link.txt'));
    symlinkSync(join(outside, 'not-yet.txt'), join(ctx.workspace, 'dangling.txt'));
    const attempts = [
      { command: 'view' as const, path: '../../etc/passwd' },
      { command: 'view' as const, path: '/workspace/../etc/passwd' },
      { command: 'view' as const, path: '/etc/passwd' },
      { command: 'view' as const, path: join(outside, 'secret.txt') },
      { command: 'view' as const, path: 'escape/secret.txt' },
      { command: 'view' as const, path: 'secret-link.txt' },
      { command: 'create' as const, path: 'escape/new.txt', file_text: 'x' },
      { command: 'create' as const, path: 'dangling.txt', file_text: 'planted' },
      { command: 'str_replace' as const, path: 'secret-link.txt', old_str: 'outside', new_str: 'changed' },
    ];
    for (const attempt of attempts) {
      const result = await call(strReplaceEditorTool, attempt, ctx);
      expect(result.error, attempt.path).toMatch(/outside the workspace/);
      expect(result.output).toBeUndefined();
    }
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('outside secret\n');
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(outside, 'not-yet.txt'))).toBe(false);
  });

  it('follows symlinks that stay inside the workspace', async () => {
    mkdirSync(join(ctx.workspace, 'real'));
    writeFileSync(join(ctx.workspace, 'real/file.txt'), 'inside');
    symlinkSync(join(ctx.workspace, 'real'), join(ctx.workspace, 'alias'));
    const result = await call(strReplaceEditorTool, { command: 'view', path: 'alias/file.txt' }, ctx);
    expect(result.output).toBe('/workspace/real/file.txt:\n     1\tinside');
  });

  it('refuses binary files and missing arguments clearly', async () => {
    writeFileSync(join(ctx.workspace, 'blob.bin'), Buffer.from([0, 1, 2, 0, 255]));
    expect((await call(strReplaceEditorTool, { command: 'view', path: 'blob.bin' }, ctx)).error).toMatch(/binary file/);
    expect((await call(strReplaceEditorTool, { command: 'create', path: 'n.txt' }, ctx)).error).toMatch(
      /needs file_text/,
    );
    expect((await call(strReplaceEditorTool, { command: 'str_replace', path: 'blob.bin' }, ctx)).error).toMatch(
      /needs old_str/,
    );
    expect((await call(strReplaceEditorTool, { command: 'view', path: 'missing.txt' }, ctx)).error).toMatch(
      /does not exist/,
    );
  });

  it('refuses to view or edit text that is not valid UTF-8, leaving its bytes as they were', async () => {
    // "café" in Latin-1: é is the lone byte 0xe9, which UTF-8 decoding would turn into U+FFFD
    const latin1 = Buffer.from('caf\xe9 = 1\nnext = 2\n', 'latin1');
    writeFileSync(join(ctx.workspace, 'legacy.py'), latin1);
    const attempts = [
      { command: 'str_replace' as const, path: 'legacy.py', old_str: 'next = 2', new_str: 'next = 3' },
      { command: 'insert' as const, path: 'legacy.py', insert_line: 0, new_str: '# header' },
      { command: 'view' as const, path: 'legacy.py' },
    ];
    for (const attempt of attempts) {
      const result = await call(strReplaceEditorTool, attempt, ctx);
      expect(result.error, attempt.command).toMatch(/legacy\.py is not valid UTF-8 text/);
    }
    expect(readFileSync(join(ctx.workspace, 'legacy.py')).equals(latin1)).toBe(true);
  });

  it('keeps a byte-order mark and every other byte it was not asked to change', async () => {
    const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('naïve = "日本"\nx = 1\n')]);
    writeFileSync(join(ctx.workspace, 'bom.py'), original);
    await call(
      strReplaceEditorTool,
      { command: 'str_replace', path: 'bom.py', old_str: 'x = 1', new_str: 'x = 2' },
      ctx,
    );
    expect(
      readFileSync(join(ctx.workspace, 'bom.py')).equals(Buffer.from(original.toString().replace('x = 1', 'x = 2'))),
    ).toBe(true);
    expect(readFileSync(join(ctx.workspace, 'bom.py')).subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });

  it('gives what it creates, files and folders, to the owner of the workspace folder', async () => {
    // run as root here: the workspace belongs to an ordinary user, as a folder the person chose would
    chownSync(ctx.workspace, 1000, 1000);
    await call(strReplaceEditorTool, { command: 'create', path: 'made/by/agent.txt', file_text: 'x' }, ctx);
    for (const path of ['made', 'made/by', 'made/by/agent.txt']) {
      const stat = lstatSync(join(ctx.workspace, path));
      expect([stat.uid, stat.gid], path).toEqual([1000, 1000]);
    }
    await call(strReplaceEditorTool, { command: 'undo_edit', path: 'made/by/agent.txt' }, ctx);
    writeFileSync(join(ctx.workspace, 'edited.txt'), 'one');
    chownSync(join(ctx.workspace, 'edited.txt'), 1000, 1000);
    await call(
      strReplaceEditorTool,
      { command: 'str_replace', path: 'edited.txt', old_str: 'one', new_str: 'two' },
      ctx,
    );
    expect(lstatSync(join(ctx.workspace, 'edited.txt')).uid).toBe(1000);
  });

  it('refuses files larger than it handles instead of reading them whole', async () => {
    // a sparse file: instant for the sandbox to make, gigabytes for a host that read it
    const huge = join(ctx.workspace, 'huge.log');
    writeFileSync(huge, 'start\n');
    truncateSync(huge, 4 * 1024 ** 3);
    for (const command of ['view', 'str_replace', 'insert'] as const) {
      const result = await call(
        strReplaceEditorTool,
        { command, path: 'huge.log', old_str: 'start', new_str: 'x', insert_line: 0 },
        ctx,
      );
      expect(result.error, command).toMatch(/huge\.log is larger than 10 MB, more than str_replace_editor handles/);
    }
    expect(statSync(huge).size).toBe(4 * 1024 ** 3);
  });
});
