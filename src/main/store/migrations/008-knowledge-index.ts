/**
 * The knowledge index: folders the person added, their files (with the content hash that decides whether a file is
 * read again, or why it could not be read), and the files' passages with their locations. Passages are searched through
 * `passage_fts`, which holds each passage's words as segmented for search (Chinese has no spaces: the store splits it
 * into words with Intl.Segmenter), so it keeps no copy of the text; bm25 ranks it.
 */
export const knowledgeIndexSchema = `
CREATE TABLE index_folders (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  path       TEXT NOT NULL UNIQUE,
  rules      TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(rules)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER
);

CREATE TABLE index_files (
  id         INTEGER PRIMARY KEY,
  folder_id  INTEGER NOT NULL REFERENCES index_folders (id) ON DELETE CASCADE,
  path       TEXT NOT NULL,
  size       INTEGER NOT NULL,
  mtime_ms   INTEGER NOT NULL,
  hash       TEXT NOT NULL,
  format     TEXT,
  -- why it could not be read; NULL when its passages are in the index
  reason     TEXT,
  indexed_at INTEGER NOT NULL,
  UNIQUE (folder_id, path)
);

CREATE TABLE index_passages (
  id       INTEGER PRIMARY KEY,
  file_id  INTEGER NOT NULL REFERENCES index_files (id) ON DELETE CASCADE,
  location TEXT NOT NULL CHECK (json_valid(location)),
  text     TEXT NOT NULL
);
CREATE INDEX index_passages_by_file ON index_passages (file_id);

CREATE VIRTUAL TABLE passage_fts USING fts5 (
  words,
  content = '',
  contentless_delete = 1,
  tokenize = 'unicode61 remove_diacritics 2'
);

-- a passage leaves the search with its row, however it goes (its file re-read, removed, its folder removed)
CREATE TRIGGER index_passages_leave_search AFTER DELETE ON index_passages BEGIN
  DELETE FROM passage_fts WHERE rowid = old.id;
END;
`;
