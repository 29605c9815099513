import { walkTree } from './workspace-tree.js';
import { WorkspaceRoot } from './workspace-root.js';

/**
 * The bytes the workspace's files hold, by their apparent sizes (what a copy of them would take), walked through the
 * workspace's held handles: links are counted as links, never followed.
 */
export function workspaceBytes(workspace: string): number {
  let bytes = 0;
  WorkspaceRoot.with(workspace, (root) =>
    walkTree(root, [], {
      levels: Number.POSITIVE_INFINITY,
      visit: ({ stat }) => {
        if (stat.isFile()) bytes += stat.size;
        return true;
      },
    }),
  );
  return bytes;
}
