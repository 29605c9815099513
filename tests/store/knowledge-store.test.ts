import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/main/store/store.js';
import { IndexFolderError, type IndexFolder } from '../../src/main/store/knowledge-store.js';

describe('the knowledge index in the store', () => {
  let store: Store;
  let docs: IndexFolder;
  const file = (path: string, hash = path) => ({ path, size: 1, mtimeMs: 1, hash });

  beforeEach(() => {
    store = openStore(mkdtempSync(join(tmpdir(), 'manus-knowledge-')));
    docs = store.knowledge.addFolder('docs', '/home/me/docs');
  });
  afterEach(() => store.close());

  it('finds passages by their words, best first, with their file and location', () => {
    store.knowledge.saveFile(docs, file('report.pdf'), [
      { location: { page: 6 }, text: 'Nothing of note happened.' },
      { location: { page: 7 }, text: 'The quarterly revenue was 4.2 million euros.' },
    ]);
    store.knowledge.saveFile(docs, file('notes.md'), [{ location: { line: 3 }, text: 'Revenue is a word here too.' }]);
    const hits = store.knowledge.search('What was the quarterly revenue?', { limit: 5 });
    expect(hits[0]).toMatchObject({ folder: 'docs', path: 'report.pdf', location: { page: 7 } });
    expect(hits.map((hit) => hit.path)).toEqual(['report.pdf', 'notes.md']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('splits Chinese into words, so a word inside a sentence is found', () => {
    store.knowledge.saveFile(docs, file('预算.md'), [{ location: { line: 5 }, text: '今年的预算是五万元。' }]);
    store.knowledge.saveFile(docs, file('other.md'), [{ location: { line: 1 }, text: '会议改到周四。' }]);
    expect(store.knowledge.search('预算', { limit: 5 }).map((hit) => hit.path)).toEqual(['预算.md']);
    expect(store.knowledge.search('周四的会议', { limit: 5 })[0]?.path).toBe('other.md');
  });

  it('forgets the old passages of a file read again, of a removed file and of a removed folder', () => {
    store.knowledge.saveFile(docs, file('a.md'), [{ location: { line: 1 }, text: 'apples and pears' }]);
    store.knowledge.saveFile(docs, file('a.md', 'changed'), [{ location: { line: 1 }, text: 'plums only' }]);
    expect(store.knowledge.search('apples', { limit: 5 })).toEqual([]);
    expect(store.knowledge.search('plums', { limit: 5 })).toHaveLength(1);
    store.knowledge.removeFile(docs, 'a.md');
    expect(store.knowledge.search('plums', { limit: 5 })).toEqual([]);

    store.knowledge.saveFile(docs, file('b.md'), [{ location: { line: 1 }, text: 'cherries' }]);
    expect(store.knowledge.removeFolder('docs')).toBe(true);
    expect(store.knowledge.search('cherries', { limit: 5 })).toEqual([]);
    expect(store.db.prepare('SELECT count(*) AS n FROM index_passages').get()).toEqual({ n: 0 });
  });

  it('searches one folder when asked, and keeps what could not be read with its reason', () => {
    const other = store.knowledge.addFolder('other', '/home/me/other');
    store.knowledge.saveFile(docs, file('x.md'), [{ location: { line: 1 }, text: 'shared word' }]);
    store.knowledge.saveFile(other, file('y.md'), [{ location: { line: 1 }, text: 'shared word' }]);
    store.knowledge.saveFile(other, { ...file('locked.pdf'), reason: 'the PDF is encrypted' }, []);
    expect(store.knowledge.search('shared', { folder: other, limit: 5 }).map((hit) => hit.path)).toEqual(['y.md']);
    const summary = store.knowledge.summaries().find((folder) => folder.name === 'other');
    expect(summary).toMatchObject({
      files: 2,
      passages: 1,
      unreadable: [{ path: 'locked.pdf', reason: 'the PDF is encrypted' }],
    });
  });

  it('refuses a second folder of the same name or path, and a query of only punctuation finds nothing', () => {
    expect(() => store.knowledge.addFolder('docs', '/elsewhere')).toThrow(IndexFolderError);
    expect(() => store.knowledge.addFolder('again', '/home/me/docs')).toThrow(/indexed already as "docs"/);
    expect(store.knowledge.search('"*:( OR', { limit: 5 })).toEqual([]);
  });
});
