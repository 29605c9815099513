import { existsSync, mkdirSync, promises as fs, realpathSync, writeFileSync } from 'node:fs';
import { basename, extname, join, sep } from 'node:path';
import type { UploadFile, WorkspaceEntry, WorkspaceFile, WorkspaceFileKind } from '../../shared/contract.js';
import { resolveWorkspacePath } from '../sandbox/workspace-path.js';

/** The workspace panel's file access: confined to the session workspace (no `..`, no symlinks out), size-limited. */

const MAX_LISTED = 2000;
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
  const root = await fs.realpath(workspace).catch(() => undefined);
  if (!root) return { files: [], truncated: false };
  const files: WorkspaceEntry[] = [];
  let truncated = false;
  const walk = async (folder: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (files.length >= MAX_LISTED) {
        truncated = true;
        return;
      }
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH && !SKIPPED_FOLDERS.has(entry.name)) await walk(path, depth + 1);
      } else if (entry.isFile()) {
        const stat = await fs.stat(path).catch(() => undefined);
        if (!stat) continue;
        const relative = path
          .slice(root.length + 1)
          .split(sep)
          .join('/');
        files.push({ path: relative, size: stat.size, modifiedAt: stat.mtimeMs, kind: fileKind(relative) });
      }
    }
  };
  await walk(root, 0);
  files.sort((a, b) => b.modifiedAt - a.modifiedAt || a.path.localeCompare(b.path));
  return { files, truncated };
}

async function confined(workspace: string, requested: string) {
  try {
    return await resolveWorkspacePath(workspace, requested);
  } catch (error) {
    throw new WorkspaceFileError('outside_workspace', (error as Error).message);
  }
}

/** The host path of a file or folder inside the workspace (for opening it with the system). */
export async function confinedPath(workspace: string, requested: string): Promise<string> {
  const target = await confined(workspace, requested === '.' ? workspace : requested);
  const exists = await fs.stat(target.host).catch(() => undefined);
  if (!exists) throw new WorkspaceFileError('not_found', `${requested} is not in the workspace.`);
  return target.host;
}

/** One file for preview: text (cut at 512 KB) or base64 for images and PDFs (up to 15 MB). */
export async function readWorkspaceFile(workspace: string, requested: string): Promise<WorkspaceFile> {
  const target = await confined(workspace, requested);
  const stat = await fs.stat(target.host).catch(() => undefined);
  if (!stat?.isFile()) throw new WorkspaceFileError('not_found', `${requested} is not a file in the workspace.`);
  const kind = fileKind(target.relative);
  const extension = extname(target.relative).toLowerCase();
  const binary = kind === 'image' || kind === 'pdf';
  const base = { path: target.relative.split(sep).join('/'), kind, size: stat.size };
  if (binary) {
    if (stat.size > MAX_BINARY_PREVIEW) {
      throw new WorkspaceFileError(
        'too_large',
        `${requested} is ${Math.round(stat.size / 1e6)} MB, too large to preview.`,
        'Download it instead.',
      );
    }
    const content = (await fs.readFile(target.host)).toString('base64');
    return {
      ...base,
      mimeType: MIME_BY_EXTENSION[extension] ?? 'application/octet-stream',
      encoding: 'base64',
      content,
      truncated: false,
    };
  }
  const handle = await fs.open(target.host, 'r');
  try {
    const length = Math.min(stat.size, MAX_TEXT_PREVIEW);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, 0);
    return {
      ...base,
      mimeType: MIME_BY_EXTENSION[extension] ?? 'text/plain',
      encoding: 'text',
      content: buffer.toString('utf8'),
      truncated: stat.size > MAX_TEXT_PREVIEW,
    };
  } finally {
    await handle.close();
  }
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

function freeName(folder: string, name: string): string {
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  for (let index = 0; ; index += 1) {
    const candidate = index === 0 ? name : `${stem} (${index})${extension}`;
    if (!existsSync(join(folder, candidate))) return candidate;
  }
}

/**
 * Copies dropped files into `<workspace>/uploads/`; an existing name gets a " (n)" suffix, never overwritten.
 * Synchronous on purpose: called right after a new session starts, the files are there before its first step.
 * Returns the paths relative to the workspace.
 */
export function saveUploads(workspace: string, files: UploadFile[]): string[] {
  mkdirSync(workspace, { recursive: true });
  const root = realpathSync(workspace);
  const folder = join(root, 'uploads');
  mkdirSync(folder, { recursive: true });
  const real = realpathSync(folder);
  if (real !== folder)
    throw new WorkspaceFileError('outside_workspace', 'uploads/ in the workspace is a link; refused.');
  return files.map((file) => {
    const name = freeName(folder, safeFileName(file.name));
    // flag wx: a link or file that appeared meanwhile is never written through
    writeFileSync(join(folder, name), Buffer.from(file.data, 'base64'), { flag: 'wx' });
    return `uploads/${name}`;
  });
}

/** Where saveUploads puts the files in an empty workspace (a new session's), known before it exists. */
export function plannedUploadPaths(files: UploadFile[]): string[] {
  const taken = new Set<string>();
  return files.map((file) => {
    const name = safeFileName(file.name);
    const extension = extname(name);
    const stem = name.slice(0, name.length - extension.length);
    let candidate = name;
    for (let index = 1; taken.has(candidate); index += 1) candidate = `${stem} (${index})${extension}`;
    taken.add(candidate);
    return `uploads/${candidate}`;
  });
}

/** The sentence added to the task so the agent knows where the dropped files are. */
export function attachmentNote(paths: string[]): string {
  return `\n\nAttached files (copied into the workspace): ${paths.map((path) => `/workspace/${path}`).join(', ')}`;
}
