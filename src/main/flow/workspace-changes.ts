import { WorkspaceRoot } from '../workspace/workspace-root.js';
import { walkTree } from '../workspace/workspace-tree.js';

/** a workspace can be any folder the person chose: look only this deep and at this many entries */
const MAX_DEPTH = 4;
const MAX_ENTRIES = 5000;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.venv']);

/** Regular files under the workspace modified at or after `sinceMs`, relative to it: the files a step produced. */
export function filesChangedSince(workspace: string, sinceMs: number): string[] {
  const changed: string[] = [];
  let seen = 0;
  WorkspaceRoot.with(workspace, (root) =>
    walkTree(root, [], {
      levels: MAX_DEPTH + 1,
      enter: (entry) => !SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith('.'),
      visit: ({ parts, stat }) => {
        if (++seen > MAX_ENTRIES) return false;
        if (stat.isFile() && stat.mtimeMs >= sinceMs) changed.push(parts.join('/'));
        return true;
      },
    }),
  );
  return changed.sort();
}
