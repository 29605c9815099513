import type { Stats } from 'node:fs';
import type Docker from 'dockerode';
import type { WorkspaceRoot } from '../workspace/workspace-root.js';
import { runCommand } from './container-command.js';
import { CONTAINER_WORKSPACE } from './container-spec.js';

/** listing a workspace of tens of thousands of files takes seconds on a loaded engine; this bounds a hung one */
const LISTING_TIMEOUT_MS = 120_000;

export type EntryKind = 'file' | 'folder' | 'link' | 'special';

/** One workspace entry as a listing sees it: a file is judged changed by its size and modification time. */
export interface ManifestEntry {
  kind: EntryKind;
  size: number;
  mtimeMs: number;
  /** permission bits */
  mode: number;
}

/** Entries by '/'-separated path relative to the workspace root. */
export type Manifest = Map<string, ManifestEntry>;

/** kind letters of find's %y */
const FIND_KINDS: Record<string, EntryKind> = { f: 'file', d: 'folder', l: 'link' };

/**
 * The sandbox's /workspace, listed inside the container by one `find` (never following links): type, size,
 * modification time with its fraction, and the path, NUL-terminated so any name survives.
 */
export async function sandboxManifest(
  docker: Docker,
  container: Docker.Container,
  user: string,
  signal?: AbortSignal,
): Promise<Manifest> {
  const listing = await runCommand(
    docker,
    container,
    ['find', CONTAINER_WORKSPACE, '-mindepth', '1', '-printf', '%y %s %T@ %m %P\\0'],
    { user, timeoutMs: LISTING_TIMEOUT_MS, signal },
  );
  return parseFindListing(listing.toString('utf8'));
}

export function parseFindListing(listing: string): Manifest {
  const manifest: Manifest = new Map();
  for (const record of listing.split('\0')) {
    const match = /^(\S) (\d+) (\d+(?:\.\d+)?) ([0-7]+) (.+)$/s.exec(record);
    if (!match) continue;
    const [, kind, size, mtime, mode, path] = match;
    manifest.set(path, {
      kind: FIND_KINDS[kind] ?? 'special',
      size: Number(size),
      mtimeMs: secondsToMs(mtime),
      mode: parseInt(mode, 8),
    });
  }
  return manifest;
}

/** The host folder, walked through the held root (links reported as links, never followed). */
export function hostManifest(root: WorkspaceRoot): Manifest {
  const manifest: Manifest = new Map();
  const walk = (parts: string[]): void => {
    for (const entry of root.list(parts)) {
      const described = manifestEntryOf(entry.stat);
      manifest.set(entry.parts.join('/'), described);
      if (described.kind === 'folder') walk(entry.parts);
    }
  };
  walk([]);
  return manifest;
}

/** An lstat as a manifest entry (a link is a link). */
export function manifestEntryOf(stat: Stats): ManifestEntry {
  const kind: EntryKind = stat.isFile()
    ? 'file'
    : stat.isDirectory()
      ? 'folder'
      : stat.isSymbolicLink()
        ? 'link'
        : 'special';
  return { kind, size: stat.size, mtimeMs: Math.floor(stat.mtimeMs), mode: stat.mode & 0o7777 };
}

/** find prints seconds with ten decimals: compared in whole milliseconds, as the host's stat is */
function secondsToMs(seconds: string): number {
  const [whole, fraction = ''] = seconds.split('.');
  return Number(whole) * 1000 + Number(fraction.padEnd(3, '0').slice(0, 3));
}

export function sameEntry(a: ManifestEntry | undefined, b: ManifestEntry | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === 'folder') return true;
  return a.size === b.size && a.mtimeMs === b.mtimeMs;
}
