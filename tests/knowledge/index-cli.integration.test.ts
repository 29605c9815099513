import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { makeTestDocuments } from '../document/document-fixtures.js';

interface ListedFolder {
  name: string;
  files: number;
  passages: number;
  updatedAt: string | null;
  unreadable: { path: string; reason: string }[];
}
interface Hit {
  path: string;
  location: Record<string, unknown>;
  score: number;
  text: string;
}

describe('manus index, from the terminal', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-index-data-'));
  const folder = mkdtempSync(join(tmpdir(), 'manus-index-docs-'));
  const manus = async (...args: string[]) => {
    const result = await runCli(['--data-dir', dataDir, 'index', ...args], {}, { timeoutMs: 240_000 });
    if (result.code !== 0) throw new Error(`manus index ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    return result.stdout;
  };
  const search = async (query: string, ...more: string[]) =>
    JSON.parse(await manus('search', query, '--json', ...more)) as Hit[];

  beforeAll(() => {
    const documents = makeTestDocuments('manus-sandbox:latest');
    mkdirSync(join(folder, 'reports'));
    copyFileSync(join(documents, 'report.pdf'), join(folder, 'reports/report.pdf'));
    for (const name of ['guide.docx', 'budget.xlsx', 'notes.md', 'encrypted.pdf', 'bomb.docx']) {
      copyFileSync(join(documents, name), join(folder, name));
    }
    const outside = mkdtempSync(join(tmpdir(), 'manus-outside-'));
    writeFileSync(join(outside, 'secret.md'), 'the vault code is 7781');
    symlinkSync(join(outside, 'secret.md'), join(folder, 'leak.md'));
    execFileSync('mkfifo', [join(folder, 'pipe.md')]);
  }, 240_000);

  it('indexes a folder of mixed documents and lists what it could not read, with the reason', async () => {
    const added = await manus('add', folder, '--name', 'docs');
    expect(added).toMatch(/docs: 4 read, 0 unchanged, 0 removed, 4 could not be read/);
    const [listed] = JSON.parse(await manus('list', '--json')) as ListedFolder[];
    expect(listed).toMatchObject({ name: 'docs', files: 8 });
    expect(listed!.passages).toBeGreaterThan(12);
    expect(listed!.updatedAt).not.toBeNull();
    expect(Object.fromEntries(listed!.unreadable.map((file) => [file.path, file.reason]))).toEqual({
      'bomb.docx': expect.stringMatching(/zip bomb/),
      'encrypted.pdf': expect.stringMatching(/encrypted/),
      'leak.md': 'a link that leads out of the folder (not followed)',
      'pipe.md': 'not a regular file (a FIFO)',
    });
  });

  it('finds the page that answers a question, and Chinese words inside sentences', async () => {
    const hits = await search('What was the quarterly revenue?', '--limit', '3');
    expect(hits[0]).toMatchObject({ path: 'reports/report.pdf', location: { page: 7 } });
    expect(hits[0]!.text).toContain('4.2 million euros');
    expect(hits.length).toBeLessThanOrEqual(3);
    expect((await search('预算'))[0]).toMatchObject({
      path: 'notes.md',
      location: { line: 5, heading: '项目 > 预算' },
    });
    expect((await search('September revenue'))[0]).toMatchObject({ location: { sheet: 'Q3', cells: 'A1:C4' } });
    expect(JSON.stringify(await search('vault code'))).not.toContain('7781');
  });

  it('reads only what changed on update, and forgets a deleted file', async () => {
    writeFileSync(join(folder, 'notes.md'), '# 项目\n\n预算改为八万元。\n');
    execFileSync('rm', [join(folder, 'guide.docx')]);
    const updated = await manus('update', 'docs', '--wait');
    expect(updated).toMatch(/docs: 1 read, 4 unchanged, 1 removed/);
    expect((await search('八万元'))[0]?.path).toBe('notes.md');
    expect(JSON.stringify(await search('五万元'))).not.toContain('五万元');
    expect((await search('Install the package with apt')).map((hit) => hit.path)).not.toContain('guide.docx');
  });

  it('searches one folder, says what is wrong with a bad name, and removes a folder', async () => {
    const other = mkdtempSync(join(tmpdir(), 'manus-index-other-'));
    writeFileSync(join(other, 'recipe.md'), 'Revenue of the bakery: bread sells well.');
    await manus('add', other, '--name', 'bakery');
    expect((await search('revenue', '--folder', 'bakery')).map((hit) => hit.path)).toEqual(['recipe.md']);
    const missing = await runCli(['--data-dir', dataDir, 'index', 'search', 'x', '--folder', 'nope']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('No indexed folder is called "nope"');
    const twice = await runCli(['--data-dir', dataDir, 'index', 'add', other, '--name', 'again']);
    expect(twice.stderr).toContain('indexed already as "bakery"');
    expect(await manus('rm', 'bakery')).toContain('Removed "bakery"');
    expect(await search('bread')).toEqual([]);
  });
});
