import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

export type ChosenFolderRefusal =
  'not_absolute' | 'not_found' | 'not_a_folder' | 'not_readable' | 'not_writable' | 'inside_data_folder';

export class ChosenFolderError extends Error {
  constructor(
    readonly code: ChosenFolderRefusal,
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'ChosenFolderError';
  }
}

function isWithin(folder: string, parent: string): boolean {
  const path = relative(parent, folder);
  return path === '' || (!path.startsWith(`..${sep}`) && path !== '..' && !isAbsolute(path));
}

/**
 * A folder the person chose for a session's workspace, checked: an absolute path to an existing folder the app can
 * read and write, not the app's own data folder or inside it. Returns it resolved (links followed).
 */
export function checkChosenFolder(requested: string, dataDir: string): string {
  const trimmed = requested.trim();
  if (!isAbsolute(trimmed)) {
    throw new ChosenFolderError(
      'not_absolute',
      `${trimmed || 'An empty path'} is not a full path.`,
      'Give the whole path, starting from the root (/home/me/project, C:\\Users\\me\\project).',
    );
  }
  let folder: string;
  try {
    folder = realpathSync(trimmed);
  } catch {
    throw new ChosenFolderError(
      'not_found',
      `${trimmed} does not exist.`,
      'Check the path, or create the folder first.',
    );
  }
  if (!statSync(folder).isDirectory()) {
    throw new ChosenFolderError(
      'not_a_folder',
      `${trimmed} is a file, not a folder.`,
      'Choose the folder that holds it.',
    );
  }
  try {
    accessSync(folder, constants.R_OK | constants.X_OK);
  } catch {
    throw new ChosenFolderError('not_readable', `${trimmed} cannot be read by the app.`, 'Choose a folder you own.');
  }
  try {
    accessSync(folder, constants.W_OK);
  } catch {
    throw new ChosenFolderError(
      'not_writable',
      `${trimmed} cannot be written by the app: the agent saves its work there.`,
      'Choose a folder you own.',
    );
  }
  const data = resolve(realpathOr(dataDir));
  if (isWithin(folder, data) || isWithin(data, folder)) {
    throw new ChosenFolderError(
      'inside_data_folder',
      `${trimmed} holds the app's own data (${data}); a session may not work there.`,
      'Choose a folder outside the data folder.',
    );
  }
  return folder;
}

function realpathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
