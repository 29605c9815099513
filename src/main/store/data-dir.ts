import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const APP_FOLDER_NAME = 'manus-desktop';
export const WORKSPACES_FOLDER_NAME = 'workspaces';

export interface DataDirOptions {
  /** `--data-dir DIR` */
  dataDir?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  homeDir?: string;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value && value.trim() !== '' ? value : undefined;
}

/** The OS app-data folder, the same one Electron's `app.getPath('userData')` gives for this app name. */
export function defaultDataDir(platform: NodeJS.Platform, env: NodeJS.ProcessEnv, homeDir: string): string {
  if (platform === 'darwin') return path.join(homeDir, 'Library', 'Application Support', APP_FOLDER_NAME);
  if (platform === 'win32') {
    const appData = nonEmpty(env.APPDATA) ?? path.join(homeDir, 'AppData', 'Roaming');
    return path.win32.join(appData, APP_FOLDER_NAME);
  }
  return path.join(nonEmpty(env.XDG_CONFIG_HOME) ?? path.join(homeDir, '.config'), APP_FOLDER_NAME);
}

/** The data folder: the flag, else MANUS_DATA_DIR, else the OS app-data folder; created (private) if missing. */
export function resolveDataDir(options: DataDirOptions = {}): string {
  const env = options.env ?? process.env;
  const chosen =
    nonEmpty(options.dataDir) ??
    nonEmpty(env.MANUS_DATA_DIR) ??
    defaultDataDir(options.platform ?? process.platform, env, options.homeDir ?? os.homedir());
  const dataDir = path.resolve(chosen);
  try {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new Error(`Cannot create the data folder ${dataDir}: ${(error as Error).message}`, { cause: error });
  }
  if (!fs.statSync(dataDir).isDirectory()) {
    throw new Error(`The data folder ${dataDir} exists but is not a folder; pass another one with --data-dir`);
  }
  return dataDir;
}

/** A session's own workspace, used when the user did not choose a folder. */
export function sessionWorkspaceDir(dataDir: string, sessionId: string): string {
  return path.join(dataDir, WORKSPACES_FOLDER_NAME, sessionId);
}

/** The session's workspace is the one the app made for it (not a folder the user chose). */
export function isManagedWorkspace(dataDir: string, sessionId: string, workspace: string): boolean {
  return path.resolve(workspace) === path.resolve(sessionWorkspaceDir(dataDir, sessionId));
}
