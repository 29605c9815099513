import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDocumentTool } from '../../src/main/tool/read-document.js';
import { createToolContext, type TestToolContext } from '../support/tool-context.js';
import { call, textOf } from '../sandbox/sandbox-test-kit.js';
import { makeTestDocuments } from './document-fixtures.js';

describe('read_document', () => {
  let ctx: TestToolContext;
  let outside: string;

  beforeAll(() => {
    const documents = makeTestDocuments('manus-sandbox:latest');
    ctx = createToolContext({ settings: { agent: { maxObserve: 6000 } } });
    for (const name of ['report.pdf', 'encrypted.pdf', 'budget.xlsx']) {
      copyFileSync(join(documents, name), join(ctx.workspace, name));
    }
    outside = mkdtempSync(join(tmpdir(), 'manus-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'the key is 1234');
  }, 240_000);
  afterAll(async () => {
    await (await ctx.session.documents.get()).close();
  });

  it('gives the model the pages it asks for, each headed by its page, fenced as data from the document', async () => {
    const result = await call(readDocumentTool, { path: '/workspace/report.pdf', pages: '7' }, ctx);
    expect(result.error).toBeUndefined();
    const text = textOf(result);
    expect(text).toContain('/workspace/report.pdf (PDF, 12 pages)');
    expect(text).toContain('[page 7]\nAnnual report, page 7\nThe quarterly revenue was 4.2 million euros.');
    expect(text).not.toContain('[page 6]');
    expect(text).toMatch(
      /<untrusted_document_content source="\/workspace\/report.pdf">[\s\S]*<\/untrusted_document_content>$/,
    );
  });

  it('reads the first pages of a long document and says how to ask for the rest', async () => {
    const text = textOf(await call(readDocumentTool, { path: 'budget.xlsx' }, ctx));
    expect(text).toContain('[sheet Q3, cells A1:C4]');
    const report = textOf(await call(readDocumentTool, { path: 'report.pdf', pages: '11-12' }, ctx));
    expect(report).toContain('[page 12]');
  });

  it('tells the model why a document cannot be read', async () => {
    const result = await call(readDocumentTool, { path: 'encrypted.pdf' }, ctx);
    expect(result.error).toBe('encrypted.pdf cannot be read: the PDF is encrypted (it needs a password).');
    expect((await call(readDocumentTool, { path: 'report.pdf', pages: '9-3' }, ctx)).error).toMatch(/ends before/);
    expect(() => readDocumentTool.parameters.parse({ path: 'report.pdf', pages: 'all' })).toThrow(/one number/);
  });

  it('never reads a file through a link out of the workspace, nor a FIFO', async () => {
    symlinkSync(join(outside, 'secret.txt'), join(ctx.workspace, 'notes.txt'));
    const linked = await call(readDocumentTool, { path: 'notes.txt' }, ctx);
    expect(linked.error).toBeDefined();
    expect(textOf(linked)).not.toContain('1234');
    execFileSync('mkfifo', [join(ctx.workspace, 'pipe.txt')]);
    const fifo = await call(readDocumentTool, { path: 'pipe.txt' }, ctx);
    expect(fifo.error).toMatch(/not a regular file|special/);
  });
});
