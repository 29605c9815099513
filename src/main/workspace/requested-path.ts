import { isAbsolute, relative, resolve, sep } from 'node:path';
import { CONTAINER_WORKSPACE } from './sandbox-path.js';
import { WorkspacePathError } from './workspace-path-error.js';

/** Path parts relative to the workspace root, `..` still in them; `fromRoot` when they restart at the root. */
export interface PathParts {
  parts: string[];
  fromRoot: boolean;
}

/**
 * The parts of `/workspace/x`, `x`, or a host path inside the workspace (`hostRoots`: the root as given and as
 * resolved); undefined for any other absolute path.
 */
export function pathParts(path: string, hostRoots: readonly string[]): PathParts | undefined {
  if (path === CONTAINER_WORKSPACE || path.startsWith(`${CONTAINER_WORKSPACE}/`)) {
    return { parts: splitParts(path.slice(CONTAINER_WORKSPACE.length)), fromRoot: true };
  }
  if (!isAbsolute(path)) return { parts: splitParts(path), fromRoot: false };
  for (const root of hostRoots) {
    const inside = relative(root, resolve(path));
    if (inside !== '..' && !inside.startsWith(`..${sep}`) && !isAbsolute(inside)) {
      return { parts: splitParts(inside), fromRoot: true };
    }
  }
  return undefined;
}

/** The parts of a path the model gave, refused with a clear error when it is empty or absolute elsewhere. */
export function requestedParts(requested: string, hostRoots: readonly string[]): string[] {
  const trimmed = requested.trim();
  if (!trimmed)
    throw new WorkspacePathError('outside', 'The path is empty. Give a path under /workspace or relative to it.');
  const found = pathParts(trimmed, hostRoots);
  if (!found) throw outsideRefusal(requested);
  return found.parts;
}

export function outsideRefusal(requested: string): WorkspacePathError {
  return new WorkspacePathError(
    'outside',
    `${requested} is outside the workspace. Only files under /workspace (or paths relative to it) can be used.`,
  );
}

function splitParts(path: string): string[] {
  return path.split(sep === '/' ? '/' : /[\\/]/).filter((part) => part !== '' && part !== '.');
}
