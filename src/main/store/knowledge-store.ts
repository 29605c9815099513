import { DocumentLocationSchema, type DocumentLocation, type DocumentPassage } from '../../shared/document-text.js';
import type { SqliteDatabase } from './database.js';
import { searchWords } from './search-words.js';

/** a query's words beyond these are not searched (a pasted page is not a question) */
const MAX_QUERY_WORDS = 64;

export interface IndexFolder {
  id: number;
  name: string;
  /** absolute host path */
  path: string;
  createdAt: number;
  /** when its last update finished; undefined before the first */
  updatedAt?: number;
}

export interface IndexFolderSummary extends IndexFolder {
  files: number;
  passages: number;
  unreadable: { path: string; reason: string }[];
}

/** What the index knows of a file: enough to tell whether it changed. */
export interface IndexedFile {
  path: string;
  size: number;
  mtimeMs: number;
  hash: string;
}

export interface FileReading extends IndexedFile {
  format?: string;
  /** why it could not be read; its passages are then none */
  reason?: string;
}

export interface PassageHit {
  folder: string;
  /** relative to the folder, with `/` */
  path: string;
  location: DocumentLocation;
  /** bm25 relevance, higher is better */
  score: number;
  text: string;
}

interface FolderColumns {
  id: number;
  name: string;
  path: string;
  created_at: number;
  updated_at: number | null;
}

const folderOf = (row: FolderColumns): IndexFolder => ({
  id: row.id,
  name: row.name,
  path: row.path,
  createdAt: row.created_at,
  ...(row.updated_at === null ? {} : { updatedAt: row.updated_at }),
});

/** A folder that cannot be added (its name or path is in the index already): the message says which. */
export class IndexFolderError extends Error {
  override readonly name = 'IndexFolderError';
}

interface HitColumns {
  folder: string;
  path: string;
  location: string;
  text: string;
  rank: number;
}

const SEARCH = (where: string) =>
  `SELECT d.name AS folder, f.path AS path, p.location AS location, p.text AS text, passage_fts.rank AS rank
   FROM passage_fts
   JOIN index_passages p ON p.id = passage_fts.rowid
   JOIN index_files f ON f.id = p.file_id
   JOIN index_folders d ON d.id = f.folder_id
   WHERE passage_fts MATCH ? ${where}
   ORDER BY passage_fts.rank
   LIMIT ?`;

/** The knowledge index in SQLite (migration 008): folders, their files, passages and the passages' full-text search. */
export class KnowledgeStore {
  private readonly sql;

  constructor(private readonly db: SqliteDatabase) {
    this.sql = {
      addFolder: db.prepare<[string, string, number], FolderColumns>(
        'INSERT INTO index_folders (name, path, created_at) VALUES (?, ?, ?) RETURNING *',
      ),
      folders: db.prepare<[], FolderColumns>('SELECT * FROM index_folders ORDER BY name'),
      folderByName: db.prepare<[string], FolderColumns>('SELECT * FROM index_folders WHERE name = ?'),
      folderByPath: db.prepare<[string], FolderColumns>('SELECT * FROM index_folders WHERE path = ?'),
      removeFolder: db.prepare<[string]>('DELETE FROM index_folders WHERE name = ?'),
      markUpdated: db.prepare<[number, number]>('UPDATE index_folders SET updated_at = ? WHERE id = ?'),
      counts: db.prepare<{ folder: number }, { files: number; passages: number }>(
        `SELECT count(*) AS files,
                (SELECT count(*) FROM index_passages p JOIN index_files f ON f.id = p.file_id
                 WHERE f.folder_id = @folder) AS passages
         FROM index_files WHERE folder_id = @folder`,
      ),
      unreadable: db.prepare<[number], { path: string; reason: string }>(
        'SELECT path, reason FROM index_files WHERE folder_id = ? AND reason IS NOT NULL ORDER BY path',
      ),
      files: db.prepare<[number], { path: string; size: number; mtime_ms: number; hash: string }>(
        'SELECT path, size, mtime_ms, hash FROM index_files WHERE folder_id = ?',
      ),
      upsertFile: db.prepare<
        [number, string, number, number, string, string | null, string | null, number],
        { id: number }
      >(
        `INSERT INTO index_files (folder_id, path, size, mtime_ms, hash, format, reason, indexed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (folder_id, path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
           hash = excluded.hash, format = excluded.format, reason = excluded.reason, indexed_at = excluded.indexed_at
         RETURNING id`,
      ),
      touchFile: db.prepare<[number, number, number, string]>(
        'UPDATE index_files SET size = ?, mtime_ms = ? WHERE folder_id = ? AND path = ?',
      ),
      clearPassages: db.prepare<[number]>('DELETE FROM index_passages WHERE file_id = ?'),
      insertPassage: db.prepare<[number, string, string], { id: number }>(
        'INSERT INTO index_passages (file_id, location, text) VALUES (?, ?, ?) RETURNING id',
      ),
      insertWords: db.prepare<[number, string]>('INSERT INTO passage_fts (rowid, words) VALUES (?, ?)'),
      removeFile: db.prepare<[number, string]>('DELETE FROM index_files WHERE folder_id = ? AND path = ?'),
      search: db.prepare<[string, number], HitColumns>(SEARCH('')),
      searchFolder: db.prepare<[string, number, number], HitColumns>(SEARCH('AND d.id = ?')),
    };
  }

  /** Adds a folder; a name or path already in the index is an InvalidRecordError saying which. */
  addFolder(name: string, path: string, now = Date.now()): IndexFolder {
    const taken = this.sql.folderByName.get(name) ?? this.sql.folderByPath.get(path);
    if (taken) {
      const why =
        taken.name === name ? `the name "${name}" is taken` : `that folder is indexed already as "${taken.name}"`;
      throw new IndexFolderError(`${path} cannot be added: ${why}.`);
    }
    return folderOf(this.sql.addFolder.get(name, path, now)!);
  }

  folder(name: string): IndexFolder | undefined {
    const row = this.sql.folderByName.get(name);
    return row ? folderOf(row) : undefined;
  }

  folders(): IndexFolder[] {
    return this.sql.folders.all().map(folderOf);
  }

  summaries(): IndexFolderSummary[] {
    return this.folders().map((folder) => ({
      ...folder,
      ...this.sql.counts.get({ folder: folder.id })!,
      unreadable: this.sql.unreadable.all(folder.id),
    }));
  }

  /** Removes a folder with its files and passages; false when there was none of that name. */
  removeFolder(name: string): boolean {
    return this.sql.removeFolder.run(name).changes > 0;
  }

  markUpdated(folder: IndexFolder, now = Date.now()): void {
    this.sql.markUpdated.run(now, folder.id);
  }

  /** The files of a folder as the index last saw them, by relative path. */
  files(folder: IndexFolder): Map<string, IndexedFile> {
    return new Map(
      this.sql.files
        .all(folder.id)
        .map((row) => [row.path, { path: row.path, size: row.size, mtimeMs: row.mtime_ms, hash: row.hash }]),
    );
  }

  /** A file read anew: its row and its passages replace what was there, in one transaction. */
  saveFile(folder: IndexFolder, file: FileReading, passages: readonly DocumentPassage[], now = Date.now()): void {
    this.db.transaction(() => {
      const { id } = this.sql.upsertFile.get(
        folder.id,
        file.path,
        file.size,
        file.mtimeMs,
        file.hash,
        file.format ?? null,
        file.reason ?? null,
        now,
      )!;
      this.sql.clearPassages.run(id);
      for (const passage of passages) {
        const row = this.sql.insertPassage.get(id, JSON.stringify(passage.location), passage.text)!;
        // the path's words are searched too: a question naming the file finds it
        this.sql.insertWords.run(row.id, searchWords(`${file.path} ${passage.text}`).join(' '));
      }
    })();
  }

  /** A file whose content did not change (same hash) but whose size or time did. */
  touchFile(folder: IndexFolder, file: IndexedFile): void {
    this.sql.touchFile.run(file.size, file.mtimeMs, folder.id, file.path);
  }

  removeFile(folder: IndexFolder, path: string): void {
    this.sql.removeFile.run(folder.id, path);
  }

  /** The passages that best match the query's words (any of them; bm25 ranks those with more, rarer ones first). */
  search(query: string, options: { folder?: IndexFolder; limit: number }): PassageHit[] {
    const words = [...new Set(searchWords(query))].slice(0, MAX_QUERY_WORDS);
    if (words.length === 0) return [];
    const match = words.map((word) => `"${word.replace(/"/g, '""')}"`).join(' OR ');
    const rows = options.folder
      ? this.sql.searchFolder.all(match, options.folder.id, options.limit)
      : this.sql.search.all(match, options.limit);
    return rows.map((row) => ({
      folder: row.folder,
      path: row.path,
      location: DocumentLocationSchema.parse(JSON.parse(row.location)),
      // bm25 is lower for better matches; people read "higher is better"
      score: Math.round(-row.rank * 1000) / 1000,
      text: row.text,
    }));
  }
}
