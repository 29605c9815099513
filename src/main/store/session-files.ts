import fs from 'node:fs';
import type { SessionStore } from './store-api.js';
import { isManagedWorkspace } from './data-dir.js';
import { SessionNotFoundError } from './store-errors.js';

export interface SessionDeletion {
  sessionId: string;
  workspace: string;
  /** true when the workspace was the session's own folder under <dataDir>/workspaces and it was removed */
  workspaceDeleted: boolean;
  /** why the workspace was kept, when it was */
  workspaceKeptBecause?: string;
}

/** Deletes a session's rows and its own workspace folder; a folder the user chose is never touched. */
export function deleteSessionEverywhere(store: SessionStore, dataDir: string, sessionId: string): SessionDeletion {
  const session = store.getSession(sessionId);
  if (!session) throw new SessionNotFoundError(sessionId);
  store.deleteSession(sessionId);
  const workspace = session.workspace;
  if (!isManagedWorkspace(dataDir, sessionId, workspace)) {
    return {
      sessionId,
      workspace,
      workspaceDeleted: false,
      workspaceKeptBecause: 'the folder was chosen by the user, not created for the session',
    };
  }
  if (!fs.lstatSync(workspace, { throwIfNoEntry: false })) {
    return { sessionId, workspace, workspaceDeleted: false, workspaceKeptBecause: 'the folder did not exist' };
  }
  // a symlink is removed itself, never followed: rm does not recurse through links
  fs.rmSync(workspace, { recursive: true, force: true });
  return { sessionId, workspace, workspaceDeleted: true };
}
