import { existsSync } from 'node:fs';
import { basename, extname } from 'node:path';
import type { WorkspaceEntry, WorkspaceFile, WorkspaceFileKind } from '../../shared/contract.js';
import type { StagedFile } from './upload-staging.js';
import { createFree } from './free-name.js';
import { WorkspacePathError, type WorkspaceRefusal } from './workspace-path-error.js';
import { WorkspaceRoot } from './workspace-root.js';
import { walkTree } from './workspace-tree.js';

/** The workspace panel's file access: confined to the session workspace (no `..`, no symlinks out), size-limited. */

const MAX_LISTED = 2000;
/** where attached and dropped files land in a workspace */
export const UPLOADS_FOLDER = 'uploads';
const MAX_DEPTH = 8;
/** text previews are cut here */
const MAX_TEXT_PREVIEW = 512 * 1024;
/** images and PDFs larger than this are not sent for preview */
const MAX_BINARY_PREVIEW = 15 * 1024 * 1024;
/** folders whose contents nobody previews and that would flood the list */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git', '__pycache__', '.venv', '.cache']);

const KIND_BY_EXTENSION: Record<string, WorkspaceFileKind> = {
  '.png': 'image',
  '.jpg': 'image',
  '.jpeg': 'image',
  '.gif': 'image',
  '.webp': 'image',
  '.svg': 'image',
  '.csv': 'csv',
  '.tsv': 'csv',
  '.html': 'html',
  '.htm': 'html',
  '.pdf': 'pdf',
  '.txt': 'text',
  '.md': 'text',
  '.log': 'text',
  '.json': 'code',
  '.py': 'code',
  '.js': 'code',
  '.ts': 'code',
  '.tsx': 'code',
  '.jsx': 'code',
  '.sh': 'code',
  '.css': 'code',
  '.yml': 'code',
  '.yaml': 'code',
  '.toml': 'code',
  '.xml': 'code',
  '.sql': 'code',
  '.ipynb': 'code',
};

const MIME_BY_EXTENSION: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.csv': 'text/csv',
  '.tsv': 'text/tab-separated-values',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.json': 'application/json',
};

const FILE_ERROR_CODES: Record<WorkspaceRefusal, string> = {
  outside: 'outside_workspace',
  missing: 'not_found',
  folder: 'not_a_file',
  not_folder: 'not_found',
  special: 'special_file',
  exists: 'exists',
  link: 'outside_workspace',
  changed: 'changed',
};

export class WorkspaceFileError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'WorkspaceFileError';
  }
}

export function fileKind(path: string): WorkspaceFileKind {
  return KIND_BY_EXTENSION[extname(path).toLowerCase()] ?? 'other';
}

/** Every regular file under the workspace, newest first; symlinks are listed neither as files nor followed. */
export async function listWorkspace(workspace: string): Promise<{ files: WorkspaceEntry[]; truncated: boolean }> {
  if (!existsSync(workspace)) return { files: [], truncated: false };
  const files: WorkspaceEntry[] = [];
  let truncated = false;
  WorkspaceRoot.with(workspace, (root) =>
    walkTree(root, [], {
      levels: MAX_DEPTH + 1,
      enter: (entry) => !SKIPPED_FOLDERS.has(entry.name),
      visit: ({ parts, stat }) => {
        if (files.length >= MAX_LISTED) {
          truncated = true;
          return false;
        }
        const path = parts.join('/');
        if (stat.isFile()) files.push({ path, size: stat.size, modifiedAt: stat.mtimeMs, kind: fileKind(path) });
        return true;
      },
    }),
  );
  files.sort((a, b) => b.modifiedAt - a.modifiedAt || a.path.localeCompare(b.path));
  return { files, truncated };
}

/** Runs `work` on the workspace, with its refusals as the API's errors. */
function inWorkspace<T>(workspace: string, work: (root: WorkspaceRoot) => T): T {
  try {
    return WorkspaceRoot.with(workspace, work);
  } catch (error) {
    if (error instanceof WorkspacePathError) {
      throw new WorkspaceFileError(FILE_ERROR_CODES[error.reason], error.message);
    }
    throw error;
  }
}

/**
 * The host path of a file or folder inside the workspace (for opening it with the system), checked to have no link
 * on its way. The system opens it by path later: that opening is out of this process's hands.
 */
export async function confinedPath(workspace: string, requested: string): Promise<string> {
  return inWorkspace(workspace, (root) => {
    const target = root.target(requested);
    const stat = root.lstat(target.parts);
    if (!stat) throw new WorkspaceFileError('not_found', `${requested} is not in the workspace.`);
    if (!stat.isFile() && !stat.isDirectory())
      throw new WorkspaceFileError('special_file', `${requested} is not a regular file or folder; it is not opened.`);
    return target.host;
  });
}

/** One file for preview: text (cut at 512 KB) or base64 for images and PDFs (up to 15 MB). */
export async function readWorkspaceFile(workspace: string, requested: string): Promise<WorkspaceFile> {
  return inWorkspace(workspace, (root) => {
    const target = root.target(requested);
    const kind = fileKind(target.relative);
    const extension = extname(target.relative).toLowerCase();
    const binary = kind === 'image' || kind === 'pdf';
    const file = root.openFile(target.parts, 'read');
    try {
      const size = file.stat.size;
      const base = { path: target.relative, kind, size };
      if (!binary) {
        return {
          ...base,
          mimeType: MIME_BY_EXTENSION[extension] ?? 'text/plain',
          encoding: 'text',
          content: file.read(MAX_TEXT_PREVIEW).toString('utf8'),
          truncated: size > MAX_TEXT_PREVIEW,
        };
      }
      if (size > MAX_BINARY_PREVIEW) {
        throw new WorkspaceFileError(
          'too_large',
          `${requested} is ${Math.round(size / 1e6)} MB, too large to preview.`,
          'Download it instead.',
        );
      }
      return {
        ...base,
        mimeType: MIME_BY_EXTENSION[extension] ?? 'application/octet-stream',
        encoding: 'base64',
        content: file.read(MAX_BINARY_PREVIEW).toString('base64'),
        truncated: false,
      };
    } finally {
      file.close();
    }
  });
}

/** A dropped file's name made safe: the last path part, no control characters, never `.`/`..`. */
export function safeFileName(name: string): string {
  const cleaned = basename(name.replace(/\\/g, '/'))
    .replace(/[\u0000-\u001f<>:"|?*]/g, '_')
    .replace(/^\.+/, '_')
    .trim()
    .slice(0, 200);
  return cleaned || 'file';
}

/**
 * Copies uploaded files into `<workspace>/uploads/`, a chunk at a time from where they were staged; an existing name
 * gets a " (n)" suffix, never overwritten. Synchronous on purpose: called as a new session starts, the files are there
 * before its first step. Returns the paths relative to the workspace.
 */
export function saveUploads(workspace: string, files: readonly StagedFile[]): string[] {
  return inWorkspace(workspace, (root) => {
    root.createFolders([UPLOADS_FOLDER]);
    return files.map((file) => {
      const name = createFree(root, [UPLOADS_FOLDER], safeFileName(file.name), { copyOf: file.path });
      return `${UPLOADS_FOLDER}/${name}`;
    });
  });
}

/** The sentence added to the task so the agent knows where the dropped files are. */
export function attachmentNote(paths: string[]): string {
  return `\n\nAttached files (copied into the workspace): ${paths.map((path) => `/workspace/${path}`).join(', ')}`;
}
