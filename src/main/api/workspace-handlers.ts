import type { CoreHandlers } from '../../shared/contract.js';
import type { SessionStore } from '../store/store-api.js';
import {
  confinedPath,
  listWorkspace,
  readWorkspaceFile,
  saveUploads,
  WorkspaceFileError,
} from '../workspace/workspace-files.js';
import type { UploadStaging } from '../workspace/upload-staging.js';
import { CoreApiError } from './invoke.js';
import { asUploadCoreError } from './upload-handlers.js';
import { requireSession } from './session-lookup.js';

export type WorkspaceHandlers = Pick<
  CoreHandlers,
  'listWorkspace' | 'readWorkspaceFile' | 'openWorkspaceFile' | 'uploadFiles'
>;

/** A workspace file refused (outside the workspace, too large, missing) reaches the UI with its code and fix. */
function asCoreError(error: unknown): never {
  if (error instanceof WorkspaceFileError) throw new CoreApiError(error.code, error.message, error.hint);
  throw error;
}

/** The workspace panel: a session's files listed, read, opened with the system, and uploaded. */
export function createWorkspaceHandlers(options: {
  store: SessionStore;
  /** the desktop shell opens files with the system's default application; absent in web mode */
  openPath?: (path: string) => Promise<void>;
  /** files uploaded for a drop into the panel */
  uploads: UploadStaging;
}): WorkspaceHandlers {
  const { store, openPath, uploads: staging } = options;
  const workspaceOf = (sessionId: string): string => requireSession(store, sessionId).workspace;

  return {
    listWorkspace: async ({ sessionId }) => {
      const root = workspaceOf(sessionId);
      return { root, ...(await listWorkspace(root)) };
    },
    readWorkspaceFile: ({ sessionId, path }) => readWorkspaceFile(workspaceOf(sessionId), path).catch(asCoreError),
    openWorkspaceFile: async ({ sessionId, path }) => {
      if (!openPath) {
        throw new CoreApiError(
          'not_supported',
          'Opening files with the system works in the desktop app only.',
          'Download the file instead.',
        );
      }
      const target = await confinedPath(workspaceOf(sessionId), path).catch(asCoreError);
      await openPath(target);
      return { ok: true };
    },
    uploadFiles: ({ sessionId, uploads }) => {
      const workspace = workspaceOf(sessionId);
      const taken = asUploadCoreError(() => staging.take(uploads));
      try {
        return { paths: saveUploads(workspace, taken.files) };
      } catch (error) {
        return asCoreError(error);
      } finally {
        taken.done();
      }
    },
  };
}
