import { constants } from 'node:fs';
import { lstat, readFile, readdir, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

const MIB = 1024 * 1024;

/** What an indexed folder leaves out; the person can change them per folder. */
export interface WalkRules {
  /** larger files are listed as unreadable, never read */
  maxFileMb: number;
  /** names starting with a dot */
  includeHidden: boolean;
  /** what the folder's .gitignore files name */
  respectGitignore: boolean;
  /** folder names never entered */
  skipFolders: readonly string[];
}

export const DEFAULT_WALK_RULES: WalkRules = {
  maxFileMb: 64,
  includeHidden: false,
  respectGitignore: true,
  skipFolders: ['node_modules', '__pycache__', '.git', '.venv', 'venv', 'dist', 'build', 'target'],
};

export type WalkEntry =
  { kind: 'file'; path: string; size: number; mtimeMs: number } | { kind: 'unreadable'; path: string; reason: string };

interface GitignoreScope {
  /** relative folder the rules were written in ('' for the root) */
  base: string;
  rules: Ignore;
}

const toPosix = (path: string) => path.split(sep).join('/');

/**
 * The files of a folder to index, as paths relative to it with `/`, and what cannot be indexed with its reason: links
 * are never followed (one that leads out of the folder is listed), FIFOs, sockets and devices are listed, not opened.
 */
export async function walkFolder(root: string, rules: WalkRules, signal?: AbortSignal): Promise<WalkEntry[]> {
  const entries: WalkEntry[] = [];
  const realRoot = await realpath(root);
  const visit = async (folder: string, scopes: readonly GitignoreScope[]): Promise<void> => {
    signal?.throwIfAborted();
    const relativeFolder = toPosix(relative(root, folder));
    const own = rules.respectGitignore ? await gitignoreOf(folder, relativeFolder) : undefined;
    const inScope = own ? [...scopes, own] : scopes;
    let names: string[];
    try {
      names = (await readdir(folder)).sort();
    } catch (error) {
      entries.push({
        kind: 'unreadable',
        path: relativeFolder || '.',
        reason: `the folder cannot be listed (${code(error)})`,
      });
      return;
    }
    for (const name of names) {
      if (!rules.includeHidden && name.startsWith('.')) continue;
      const host = join(folder, name);
      const path = relativeFolder ? `${relativeFolder}/${name}` : name;
      const stat = await lstat(host).catch(() => undefined);
      if (!stat) continue;
      if (stat.isDirectory()) {
        if (rules.skipFolders.includes(name) || ignored(inScope, `${path}/`)) continue;
        await visit(host, inScope);
        continue;
      }
      if (ignored(inScope, path)) continue;
      if (stat.isSymbolicLink()) {
        const target = await realpath(host).catch(() => undefined);
        // a link inside the folder is skipped: what it points to is indexed where it stands
        if (target === undefined || !isInside(realRoot, target)) {
          entries.push({ kind: 'unreadable', path, reason: 'a link that leads out of the folder (not followed)' });
        }
        continue;
      }
      if (!stat.isFile()) {
        entries.push({ kind: 'unreadable', path, reason: `not a regular file (${specialKind(stat.mode)})` });
        continue;
      }
      if (stat.size > rules.maxFileMb * MIB) {
        const size = (stat.size / MIB).toFixed(0);
        entries.push({ kind: 'unreadable', path, reason: `${size} MB, over the ${rules.maxFileMb} MB limit` });
        continue;
      }
      entries.push({ kind: 'file', path, size: stat.size, mtimeMs: Math.floor(stat.mtimeMs) });
    }
  };
  await visit(root, []);
  return entries;
}

async function gitignoreOf(folder: string, base: string): Promise<GitignoreScope | undefined> {
  const text = await readFile(join(folder, '.gitignore'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : { base, rules: ignore().add(text) };
}

function ignored(scopes: readonly GitignoreScope[], path: string): boolean {
  return scopes.some(({ base, rules }) => {
    const within = base ? path.slice(base.length + 1) : path;
    return within !== '' && rules.ignores(within);
  });
}

function isInside(root: string, target: string): boolean {
  const rest = relative(root, target);
  return rest !== '' && !rest.startsWith('..') && !rest.startsWith(sep);
}

function specialKind(mode: number): string {
  const type = mode & constants.S_IFMT;
  if (type === constants.S_IFIFO) return 'a FIFO';
  if (type === constants.S_IFSOCK) return 'a socket';
  if (type === constants.S_IFCHR || type === constants.S_IFBLK) return 'a device';
  return 'not a file';
}

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}
