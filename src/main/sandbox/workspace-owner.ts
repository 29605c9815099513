import { closeSync, constants, fchownSync, fstatSync, mkdirSync, openSync } from 'node:fs';

/** the image's unprivileged user: the app's own workspaces belong to it when the host user is root */
export const SANDBOX_UID = 1000;
export const SANDBOX_GID = 1000;

export interface FolderOwner {
  uid: number;
  gid: number;
}

/** the folder itself, never a symlink put in its place */
const OPEN_FOLDER = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The user running the app (on Windows there is no uid: the engine's VM maps files itself). */
export function hostUser(): FolderOwner | undefined {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  return uid === undefined || gid === undefined ? undefined : { uid, gid };
}

/** The owner of a folder, read through a handle on the folder itself. */
export function folderOwner(folder: string): FolderOwner {
  const fd = openSync(folder, OPEN_FOLDER);
  try {
    const { uid, gid } = fstatSync(fd);
    return { uid, gid };
  } finally {
    closeSync(fd);
  }
}

/**
 * A workspace the app makes for a session (under the data folder). When the host user is root it is given to the
 * image's user, so the usual sandbox never runs as root; a folder still root-owned from an earlier version is given
 * too. Only the folder itself changes owner, through its handle: nothing inside it is touched.
 */
export function prepareManagedWorkspace(folder: string, host = hostUser()): void {
  mkdirSync(folder, { recursive: true });
  if (host?.uid !== 0) return;
  const fd = openSync(folder, OPEN_FOLDER);
  try {
    if (fstatSync(fd).uid === 0) fchownSync(fd, SANDBOX_UID, SANDBOX_GID);
  } finally {
    closeSync(fd);
  }
}
