import { WorkspacePathError } from '../workspace/workspace-path-error.js';
import { WorkspaceRoot } from '../workspace/workspace-root.js';

export interface CheckedAttachments {
  /** regular files and folders inside the workspace, relative to it */
  files: string[];
  /** each refused path with why, for a note */
  refused: string[];
}

/**
 * The files a model reported as a step's or a summary's attachments, kept only when each is a regular file or a
 * folder inside the workspace: `..` out, other absolute paths, links out and FIFOs, sockets or devices are dropped, never opened.
 */
export function checkAttachments(workspace: string, reported: readonly string[]): CheckedAttachments {
  const files: string[] = [];
  const refused: string[] = [];
  if (reported.length === 0) return { files, refused };
  WorkspaceRoot.with(workspace, (root) => {
    for (const path of reported) {
      try {
        const target = root.target(path);
        const stat = root.lstat(target.parts);
        if (!stat) refused.push(`${path} (not found)`);
        else if (stat.isFile() || stat.isDirectory()) files.push(target.relative);
        else refused.push(`${path} (not a regular file)`);
      } catch (error) {
        if (!(error instanceof WorkspacePathError)) throw error;
        refused.push(`${path} (${error.message})`);
      }
    }
  });
  return { files, refused };
}
