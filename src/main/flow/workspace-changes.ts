import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** a workspace can be any folder the person chose: look only this deep and at this many entries */
const MAX_DEPTH = 4;
const MAX_ENTRIES = 5000;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv']);

/** Files under `root` modified at or after `sinceMs`, relative to it: the files a step produced. */
export function filesChangedSince(root: string, sinceMs: number): string[] {
  const changed: string[] = [];
  let seen = 0;
  const walk = (dir: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > MAX_ENTRIES) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_DEPTH && !SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.')) walk(path, depth + 1);
      } else if (entry.isFile()) {
        try {
          if (statSync(path).mtimeMs >= sinceMs) changed.push(relative(root, path));
        } catch {
          // deleted while we looked
        }
      }
    }
  };
  walk(root, 0);
  return changed.sort();
}
