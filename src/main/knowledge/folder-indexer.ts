import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import type { DocumentPassage } from '../../shared/document-text.js';
import { DocumentUnreadableError, type DocumentReader } from '../document/document-reader.js';
import type { IndexFolder, KnowledgeStore } from '../store/knowledge-store.js';
import { DEFAULT_WALK_RULES, walkFolder, type WalkRules } from './folder-walk.js';

/** a passage longer than this is cut at a paragraph (or line) into pieces that keep its location */
const MAX_PASSAGE_CHARS = 1800;

export interface IndexProgress {
  folder: string;
  /** files looked at of all the folder's files */
  done: number;
  total: number;
  /** the file being read */
  current?: string;
  /** files that could not be read so far */
  unreadable: number;
}

export interface IndexRunSummary {
  read: number;
  unchanged: number;
  removed: number;
  unreadable: number;
}

export interface FolderIndexDeps {
  store: KnowledgeStore;
  reader: DocumentReader;
  rules?: WalkRules;
  signal?: AbortSignal;
  onProgress?: (progress: IndexProgress) => void;
}

/**
 * Brings a folder's index up to date: new and changed files are read (a file whose size and time did not change is not
 * opened; one whose content hash did not change is not read again), files gone from the folder leave the index, and
 * what cannot be read is kept with its reason. Stopped by the signal between files; the next update goes on from there.
 */
export async function updateIndexFolder(folder: IndexFolder, deps: FolderIndexDeps): Promise<IndexRunSummary> {
  const { store, signal } = deps;
  const entries = await walkFolder(folder.path, deps.rules ?? DEFAULT_WALK_RULES, signal);
  const known = store.files(folder);
  const summary: IndexRunSummary = { read: 0, unchanged: 0, removed: 0, unreadable: 0 };
  const progress: IndexProgress = { folder: folder.name, done: 0, total: entries.length, unreadable: 0 };
  const unreadable = (path: string, reason: string, stat = { size: 0, mtimeMs: 0 }) => {
    store.saveFile(folder, { path, ...stat, hash: '', reason }, []);
    summary.unreadable += 1;
    progress.unreadable += 1;
  };
  deps.onProgress?.({ ...progress });
  for (const entry of entries) {
    signal?.throwIfAborted();
    const before = known.get(entry.path);
    known.delete(entry.path);
    if (entry.kind === 'unreadable') {
      unreadable(entry.path, entry.reason);
    } else {
      if (before && before.size === entry.size && before.mtimeMs === entry.mtimeMs) {
        summary.unchanged += 1;
      } else {
        deps.onProgress?.({ ...progress, current: entry.path });
        await indexFile(folder, entry, before?.hash, deps, summary, unreadable);
      }
    }
    progress.done += 1;
    deps.onProgress?.({ ...progress });
  }
  for (const gone of known.keys()) {
    store.removeFile(folder, gone);
    summary.removed += 1;
  }
  store.markUpdated(folder);
  return summary;
}

async function indexFile(
  folder: IndexFolder,
  entry: { path: string; size: number; mtimeMs: number },
  knownHash: string | undefined,
  deps: FolderIndexDeps,
  summary: IndexRunSummary,
  unreadable: (path: string, reason: string, stat?: { size: number; mtimeMs: number }) => void,
): Promise<void> {
  const stat = { size: entry.size, mtimeMs: entry.mtimeMs };
  let content: Buffer;
  try {
    content = readRegularFile(join(folder.path, entry.path), deps.reader.limits.maxBytes);
  } catch (error) {
    unreadable(entry.path, (error as Error).message, stat);
    return;
  }
  const hash = createHash('sha256').update(content).digest('hex');
  const file = { path: entry.path, ...stat, hash };
  if (hash === knownHash) {
    deps.store.touchFile(folder, file);
    summary.unchanged += 1;
    return;
  }
  try {
    const text = await deps.reader.read(entry.path, content, deps.signal ? { signal: deps.signal } : {});
    deps.store.saveFile(folder, { ...file, format: text.format }, splitPassages(text.passages));
    summary.read += 1;
  } catch (error) {
    if (!(error instanceof DocumentUnreadableError)) throw error;
    deps.store.saveFile(folder, { ...file, reason: error.message }, []);
    summary.unreadable += 1;
  }
}

/** A file's bytes, never through a link and never from anything but a regular file; refused past `maxBytes`. */
function readRegularFile(path: string, maxBytes: number): Buffer {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new Error('not a regular file');
    if (stat.size > maxBytes) throw new Error(`over the ${Math.round(maxBytes / 1024 / 1024)} MB a document may have`);
    const content = Buffer.alloc(stat.size);
    let read = 0;
    while (read < stat.size) {
      const count = readSync(fd, content, read, stat.size - read, read);
      if (count === 0) break;
      read += count;
    }
    return content.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** Long passages cut at paragraph or line breaks into pieces of at most MAX_PASSAGE_CHARS, each at the same place. */
export function splitPassages(passages: readonly DocumentPassage[]): DocumentPassage[] {
  return passages.flatMap((passage) => {
    if (passage.text.length <= MAX_PASSAGE_CHARS) return [passage];
    const pieces: string[] = [];
    let current = '';
    for (const line of passage.text.split(/(?<=\n)/)) {
      if (current.length + line.length > MAX_PASSAGE_CHARS && current.trim()) {
        pieces.push(current.trim());
        current = '';
      }
      for (let start = 0; start < line.length; start += MAX_PASSAGE_CHARS) {
        const part = line.slice(start, start + MAX_PASSAGE_CHARS);
        if (current.length + part.length > MAX_PASSAGE_CHARS && current.trim()) {
          pieces.push(current.trim());
          current = '';
        }
        current += part;
      }
    }
    if (current.trim()) pieces.push(current.trim());
    return pieces.map((text) => ({ location: passage.location, text }));
  });
}
