import type { SessionStore } from './store-api.js';

/** the store's key of the folders chosen lately, newest first */
const RECENT_KEY = 'recentWorkspaces';
/** the folder picker offers this many */
export const MAX_RECENT_WORKSPACES = 8;

export function recentWorkspaces(store: SessionStore): string[] {
  const stored = store.getSetting<unknown>(RECENT_KEY);
  return Array.isArray(stored) ? stored.filter((folder): folder is string => typeof folder === 'string') : [];
}

/** Puts a folder a session was started in first in the recent list. */
export function rememberWorkspace(store: SessionStore, folder: string): void {
  const folders = [folder, ...recentWorkspaces(store).filter((known) => known !== folder)];
  store.setSetting(RECENT_KEY, folders.slice(0, MAX_RECENT_WORKSPACES));
}
