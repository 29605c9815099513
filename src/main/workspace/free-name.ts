import { extname } from 'node:path';
import { WorkspacePathError } from './workspace-path-error.js';
import type { WorkspaceRoot } from './workspace-root.js';

/** numbered names tried before giving up: a folder this crowded is someone's attack or mistake */
const MAX_TRIES = 10_000;

/** `name` numbered: report.pdf, report (1).pdf... (`number` 0 is the name itself). */
export function numberedName(name: string, number: number): string {
  if (number === 0) return name;
  const extension = extname(name);
  return `${name.slice(0, name.length - extension.length)} (${number})${extension}`;
}

/**
 * Creates `name` in the folder, or the first free numbered name from `firstNumber` on; each try is an exclusive
 * create, so an existing file or a link planted under the name is never written through. Returns the name used.
 */
export function createFree(
  root: WorkspaceRoot,
  folder: readonly string[],
  name: string,
  content: Parameters<WorkspaceRoot['createFile']>[1],
  firstNumber = 1,
): string {
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    const candidate = numberedName(name, tries === 0 ? 0 : firstNumber + tries - 1);
    try {
      root.createFile([...folder, candidate], content);
      return candidate;
    } catch (error) {
      if (!(error instanceof WorkspacePathError && error.reason === 'exists')) throw error;
    }
  }
  throw new WorkspacePathError('exists', `${MAX_TRIES} files named like ${name} already exist; nothing was saved.`);
}
