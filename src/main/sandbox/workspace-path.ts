import { promises as fs } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CONTAINER_WORKSPACE } from './container-spec.js';

/** A path the model gave, checked to stay inside the session workspace. */
export interface WorkspacePath {
  /** absolute path on the host */
  host: string;
  /** relative to the workspace root ('' for the root) */
  relative: string;
  /** how the sandbox sees it: /workspace/... */
  shown: string;
}

export class OutsideWorkspaceError extends Error {
  override readonly name = 'OutsideWorkspaceError';
}

/**
 * Maps `/workspace/x`, `x` or a host path inside the workspace to the host file, refusing anything that leaves the
 * workspace: `..`, other absolute paths, and symlinks (of the file or any parent) that point outside.
 */
export async function resolveWorkspacePath(workspace: string, requested: string): Promise<WorkspacePath> {
  const root = await fs.realpath(workspace);
  const trimmed = requested.trim();
  if (!trimmed) throw new OutsideWorkspaceError('The path is empty. Give a path under /workspace or relative to it.');
  let candidate: string;
  if (trimmed === CONTAINER_WORKSPACE || trimmed.startsWith(`${CONTAINER_WORKSPACE}/`)) {
    candidate = join(root, trimmed.slice(CONTAINER_WORKSPACE.length));
  } else if (isAbsolute(trimmed)) {
    const absolute = resolve(trimmed);
    if (!isInside(root, absolute) && !isInside(resolve(workspace), absolute)) throw refusal(requested);
    candidate = isInside(root, absolute) ? absolute : join(root, relative(resolve(workspace), absolute));
  } else {
    candidate = resolve(root, trimmed);
  }
  if (!isInside(root, candidate)) throw refusal(requested);
  const real = await realpathOfExistingPart(candidate);
  if (!isInside(root, real)) {
    throw new OutsideWorkspaceError(`${requested} leads outside the workspace through a symbolic link; it is refused.`);
  }
  const rel = relative(root, real);
  return {
    host: real,
    relative: rel,
    shown: rel ? `${CONTAINER_WORKSPACE}/${rel.split(sep).join('/')}` : CONTAINER_WORKSPACE,
  };
}

function refusal(requested: string): OutsideWorkspaceError {
  return new OutsideWorkspaceError(
    `${requested} is outside the workspace. Only files under /workspace (or paths relative to it) can be used.`,
  );
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** realpath of the path, or of its deepest existing parent joined with the missing rest (for files to be created) */
async function realpathOfExistingPart(path: string): Promise<string> {
  try {
    return await fs.realpath(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    const parent = dirname(path);
    // a dangling link still decides where a write would land
    const link = await fs.readlink(path).catch(() => undefined);
    if (link !== undefined) return realpathOfExistingPart(resolve(parent, link));
    if (parent === path) return path;
    const base = path.slice(parent.length + (parent.endsWith(sep) ? 0 : 1));
    return join(await realpathOfExistingPart(parent), base);
  }
}
