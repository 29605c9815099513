import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentText } from '../../src/shared/document-text.js';
import { DocumentReader, DocumentUnreadableError } from '../../src/main/document/document-reader.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { documentBytes, makeTestDocuments } from './document-fixtures.js';

const IMAGE = 'manus-sandbox:latest';

function passageWith(text: DocumentText, needle: string) {
  const found = text.passages.find((passage) => passage.text.includes(needle));
  if (!found) throw new Error(`no passage has "${needle}": ${JSON.stringify(text.passages).slice(0, 2000)}`);
  return found;
}

async function refusal(reading: Promise<unknown>): Promise<string> {
  const error = await reading.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(DocumentUnreadableError);
  return (error as Error).message;
}

describe('the document reader, in its own container', () => {
  const docker = dockerClient();
  let folder: string;
  let reader: DocumentReader;
  const read = (name: string, pages?: [number, number], using = reader) =>
    using.read(name, documentBytes(folder, name), pages ? { pages } : {});

  beforeAll(() => {
    folder = makeTestDocuments(IMAGE);
    reader = new DocumentReader({ docker, image: IMAGE });
  }, 240_000);
  afterAll(async () => {
    await reader.close();
  });

  it('reads the asked pages of a PDF, each passage located by its page', async () => {
    const text = await read('report.pdf', [6, 8]);
    expect(text.format).toBe('pdf');
    expect(text.units).toBe(12);
    expect(text.passages.map((passage) => passage.location.page)).toEqual([6, 7, 8]);
    expect(passageWith(text, '4.2 million euros').location).toEqual({ page: 7 });
  });

  it('reads scanned pages and images of text through OCR', async () => {
    const scan = await read('scanned.pdf');
    expect(passageWith(scan, '31337').location).toEqual({ page: 1 });
    const photo = await read('whiteboard.png');
    expect(passageWith(photo, 'Thursday').location).toEqual({ page: 1 });
  });

  it('reads Word, Excel, PowerPoint and OpenDocument files with headings, sheets, cells and slides', async () => {
    const guide = await read('guide.docx');
    expect(passageWith(guide, 'Install the package with apt').location).toMatchObject({ heading: 'Setup > Linux' });
    expect(passageWith(guide, '8765').text).toContain('Port\t8765');

    const budget = await read('budget.xlsx');
    expect(passageWith(budget, 'September\t402').location).toEqual({ sheet: 'Q3', cells: 'A1:C4' });
    expect(passageWith(budget, 'North\t120').location).toEqual({ sheet: 'Summary', cells: 'A1:B2' });

    const deck = await read('deck.pptx', [2, 2]);
    expect(deck.units).toBe(2);
    expect(deck.passages).toEqual([{ location: { slide: 2 }, text: 'Risks\nOCR of handwriting is weak' }]);

    const minutes = await read('minutes.odt');
    expect(passageWith(minutes, 'approved the budget').location).toMatchObject({ heading: 'Minutes' });
    const stock = await read('stock.ods');
    expect(passageWith(stock, 'Chairs\t14').location).toEqual({ sheet: 'Stock', cells: 'A1:B2' });
  });

  it('reads HTML without its scripts, EPUB by chapter, and Chinese Markdown by heading', async () => {
    const page = await read('page.html');
    expect(passageWith(page, 'Apply six weeks ahead').location).toMatchObject({ heading: 'Travel > Visas' });
    expect(JSON.stringify(page)).not.toContain('secret');

    const book = await read('book.epub', [2, 2]);
    expect(book.units).toBe(2);
    expect(passageWith(book, 'The storm came at dawn').location).toMatchObject({ chapter: 2 });
    expect(JSON.stringify(book)).not.toContain('calm night');

    const notes = await read('notes.md');
    expect(passageWith(notes, '预算是五万元').location).toEqual({ line: 5, heading: '项目 > 预算' });
  });

  it('says why a hostile or broken document cannot be read, and goes on reading the next', async () => {
    expect(await refusal(read('encrypted.pdf'))).toMatch(/encrypted/);
    expect(await refusal(read('corrupt.pdf'))).toMatch(/not a readable PDF/);
    expect(await refusal(read('bomb.docx'))).toMatch(/unpacks to 300 MB/);
    expect(passageWith(await read('report.pdf', [7, 7]), '4.2 million').location).toEqual({ page: 7 });
  });

  it('stops a document at its memory and time limits, and refuses one over its size before sending it', async () => {
    const lean = new DocumentReader({ docker, image: IMAGE, limits: { memoryMb: 200 } });
    const hasty = new DocumentReader({ docker, image: IMAGE, limits: { timeoutSeconds: 3 } });
    try {
      expect(await refusal(read('huge.html', undefined, lean))).toMatch(/needed more memory/);
      expect(passageWith(await read('deck.pptx', undefined, lean), 'Roadmap').location).toEqual({ slide: 1 });
      expect(await refusal(read('slow-scan.pdf', undefined, hasty))).toBe('reading it took longer than 3 s');
      expect(passageWith(await read('deck.pptx', undefined, hasty), 'Roadmap').location).toEqual({ slide: 1 });
    } finally {
      await Promise.all([lean.close(), hasty.close()]);
    }
    const tiny = new DocumentReader({ docker, image: IMAGE, limits: { maxBytes: 1024 } });
    expect(await refusal(read('report.pdf', undefined, tiny))).toMatch(/MB are not read/);
  });

  it('reads in a container with no network, no host folder and nothing writable but its /tmp', async () => {
    await read('notes.md');
    const [listed] = await docker.listContainers({
      filters: { label: ['manus.session=document-reader', `manus.owner.pid=${process.pid}`] },
    });
    expect(listed).toBeDefined();
    const info = await docker.getContainer(listed!.Id).inspect();
    expect(info.HostConfig.NetworkMode).toBe('none');
    expect(info.Mounts).toEqual([]);
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.HostConfig.CapDrop).toEqual(['ALL']);
    expect(info.HostConfig.SecurityOpt).toContain('no-new-privileges');
  });
});
