import type { Stats } from 'node:fs';
import type Docker from 'dockerode';
import type { WorkspaceRoot } from '../workspace/workspace-root.js';
import { z } from 'zod';
import { ContainerHelper } from './container-helper.js';
import { WORKSPACE_LISTER_SOURCE } from './drivers/sources.js';

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

const LISTER_KINDS: Record<string, EntryKind> = { f: 'file', d: 'folder', l: 'link', s: 'special' };
const ListingSchema = z.object({
  entries: z.array(
    z.tuple([z.enum(['f', 'd', 'l', 's']), z.number(), z.number(), z.number().int(), z.string().min(1)]),
  ),
  complete: z.boolean(),
});
/** a listing beyond this many entries (empty files cost the sandbox almost nothing) is cut short */
export const MAX_LISTED_ENTRIES = 200_000;

/** The sandbox's side: what was listed, and whether that is everything (a cut-short listing proves no deletion). */
export interface SandboxListing {
  manifest: Manifest;
  complete: boolean;
}

/**
 * The sandbox's /workspace, listed by a small Python lister that stays running in the container (a ContainerHelper):
 * each listing is one line written and one read on its attached stream.
 */
export class SandboxLister {
  private readonly helper: ContainerHelper;

  constructor(
    docker: Docker,
    user: string,
    private readonly maxEntries = MAX_LISTED_ENTRIES,
  ) {
    this.helper = new ContainerHelper(docker, user, {
      source: WORKSPACE_LISTER_SOURCE,
      name: 'the workspace lister',
      timeoutMs: LISTING_TIMEOUT_MS,
    });
  }

  async list(container: Docker.Container, signal?: AbortSignal): Promise<SandboxListing> {
    const answer = await this.helper.ask(container, `${this.maxEntries}\n`, signal);
    return manifestOfListing(answer.line);
  }

  stop(): void {
    this.helper.stop();
  }
}

/** One listing line, checked: what crosses from the sandbox is never trusted as typed. */
export function manifestOfListing(line: string): SandboxListing {
  const listing = ListingSchema.parse(JSON.parse(line));
  const manifest: Manifest = new Map();
  for (const [kind, size, mtimeMs, mode, path] of listing.entries) {
    // plain relative components only: anything else is not the lister's output and is dropped
    if (path.split('/').some((part) => part === '' || part === '.' || part === '..')) continue;
    manifest.set(path, { kind: LISTER_KINDS[kind], size, mtimeMs, mode });
  }
  return { manifest, complete: listing.complete };
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

export function sameEntry(a: ManifestEntry | undefined, b: ManifestEntry | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === 'folder') return true;
  return a.size === b.size && a.mtimeMs === b.mtimeMs;
}
