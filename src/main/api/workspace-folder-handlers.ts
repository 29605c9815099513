import type { CoreHandlers } from '../../shared/contract.js';
import type { SessionStore } from '../store/store-api.js';
import { recentWorkspaces } from '../store/recent-workspaces.js';
import { checkChosenFolder, ChosenFolderError } from '../workspace/chosen-folder.js';
import { CoreApiError } from './invoke.js';

export type WorkspaceFolderHandlers = Pick<
  CoreHandlers,
  'checkWorkspaceFolder' | 'recentWorkspaces' | 'pickWorkspaceFolder'
>;

/** A chosen folder checked as a session's workspace; a refusal reaches the UI with its code and fix. */
export function checkedWorkspaceFolder(path: string, dataDir: string): string {
  try {
    return checkChosenFolder(path, dataDir);
  } catch (error) {
    if (error instanceof ChosenFolderError) throw new CoreApiError(error.code, error.message, error.hint);
    throw error;
  }
}

/** Choosing a new session's folder: typed (checked), picked with the desktop dialog, or one of the recent ones. */
export function createWorkspaceFolderHandlers(options: {
  store: SessionStore;
  dataDir: string;
  /** the desktop shell's folder dialog; absent in web mode */
  pickFolder?: () => Promise<string | undefined>;
}): WorkspaceFolderHandlers {
  const { store, dataDir, pickFolder } = options;
  return {
    checkWorkspaceFolder: ({ path }) => ({ path: checkedWorkspaceFolder(path, dataDir) }),
    // a folder gone since is not offered
    recentWorkspaces: () => ({
      folders: recentWorkspaces(store).filter((folder) => {
        try {
          checkChosenFolder(folder, dataDir);
          return true;
        } catch {
          return false;
        }
      }),
    }),
    pickWorkspaceFolder: async () => {
      if (!pickFolder) {
        throw new CoreApiError(
          'not_supported',
          'The folder dialog is in the desktop app only.',
          'Type the folder’s full path instead.',
        );
      }
      const picked = await pickFolder();
      return { path: picked === undefined ? null : checkedWorkspaceFolder(picked, dataDir) };
    },
  };
}
