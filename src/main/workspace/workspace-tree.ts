import type { TreeEntry, WorkspaceRoot } from './workspace-root.js';

export interface TreeWalk {
  /** entries are visited down to this many levels (1: the start folder's entries only) */
  levels: number;
  /** whether to go into a folder (links and special files are never entered) */
  enter?: (entry: TreeEntry) => boolean;
  /** the order of each folder's entries */
  order?: (a: TreeEntry, b: TreeEntry) => number;
  /** sees each entry, parents before children; false ends the walk */
  visit: (entry: TreeEntry, level: number) => boolean;
}

/**
 * Walks the folders under `start` through the workspace's held handles: a folder swapped for a link is neither
 * followed nor listed, and a subfolder that cannot be read (removed, swapped meanwhile) is skipped.
 */
export function walkTree(root: WorkspaceRoot, start: readonly string[], walk: TreeWalk): void {
  const visitFolder = (entries: TreeEntry[], level: number): boolean => {
    if (walk.order) entries.sort(walk.order);
    for (const entry of entries) {
      if (!walk.visit(entry, level)) return false;
      if (!entry.stat.isDirectory() || level + 1 >= walk.levels || !(walk.enter?.(entry) ?? true)) continue;
      let children: TreeEntry[];
      try {
        children = root.list(entry.parts);
      } catch {
        continue;
      }
      if (!visitFolder(children, level + 1)) return false;
    }
    return true;
  };
  visitFolder(root.list(start), 0);
}
