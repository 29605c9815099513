import { chmod, lchmod, lstat, open, readdir, type FileHandle } from 'node:fs/promises';
import { constants, existsSync, type Stats } from 'node:fs';
import { join } from 'node:path';

/** Linux names an entry of an open folder by this path, so no lookup goes through a path the sandbox could change */
const PROC_FDS = '/proc/self/fd';
const HELD_HANDLES = process.platform === 'linux' && existsSync(PROC_FDS);
/** Linux's O_PATH (not in Node's constants): a handle to the folder itself, taken without the right to read it */
const O_PATH = 0o10000000;
const FOLDER_FLAGS =
  constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
/** entries looked at side by side: enough to keep the thread pool busy, few enough to leave it to others too */
const STAT_CONCURRENCY = 32;

interface PendingFolder {
  path: string;
  /** what the parent's listing saw: a folder swapped for a link or another folder since is not walked */
  dev: number;
  ino: number;
}

/**
 * The disk space a bind-mounted workspace takes, measured by the app on the host, out of reach of the sandbox's
 * processes (which could stop a meter of their own): every entry's blocks, links never followed, hard links once, only
 * what is on the workspace's own device. On Linux each folder is listed and its entries looked at through its open
 * handle, checked to be the folder the parent's listing saw, so a folder swapped for a link mid-walk is never left
 * through. A folder the sandbox made unreadable is opened again to its owner when that is this process's user.
 */
export async function hostWorkspaceUsage(folder: string): Promise<number> {
  const root = await lstat(folder);
  if (!root.isDirectory()) return 0;
  const seen = new Set<string>();
  let total = 0;
  const count = (stat: Stats): void => {
    if (stat.nlink !== 1) {
      const key = `${stat.dev}:${stat.ino}`;
      if (seen.has(key)) return;
      seen.add(key);
    }
    total += stat.blocks * 512;
  };
  count(root);
  const pending: PendingFolder[] = [{ path: folder, dev: root.dev, ino: root.ino }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    for (const { path, stat } of await listFolder(next)) {
      if (stat.dev !== root.dev) continue;
      count(stat);
      if (stat.isDirectory()) pending.push({ path, dev: stat.dev, ino: stat.ino });
    }
  }
  return total;
}

/** A folder's entries, each lstat'ed; none when it is gone or no longer the folder listed. */
async function listFolder(folder: PendingFolder): Promise<{ path: string; stat: Stats }[]> {
  if (!HELD_HANDLES) return listByPath(folder);
  const handle = await openFolder(folder);
  if (!handle) return [];
  try {
    const held = `${PROC_FDS}/${handle.fd}`;
    const names = await readdir(held).catch(() => []);
    return await statAll(names, (name) => ({ path: join(folder.path, name), at: `${held}/${name}` }));
  } finally {
    await handle.close();
  }
}

/** The folder, opened without following a link, when it is still the one listed (made readable again if need be). */
async function openFolder(folder: PendingFolder): Promise<FileHandle | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(folder.path, FOLDER_FLAGS);
      const opened = await handle.stat();
      if (opened.dev === folder.dev && opened.ino === folder.ino) return handle;
      await handle.close();
      return undefined;
    } catch (error) {
      if (attempt > 0 || (error as NodeJS.ErrnoException).code !== 'EACCES') return undefined;
      if (!(await readableAgain(folder))) return undefined;
    }
  }
  return undefined;
}

/** Gives the owner read and search on a folder of theirs that they took away (chmod 300 hides what it holds). */
async function readableAgain(folder: PendingFolder): Promise<boolean> {
  const uid = process.getuid?.();
  if (uid === undefined) return false;
  try {
    // the folder itself, held without following a link: the mode is changed on that handle's inode, nowhere else
    const handle = await open(folder.path, O_PATH | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0));
    try {
      const held = await handle.stat();
      if (held.dev !== folder.dev || held.ino !== folder.ino || held.uid !== uid) return false;
      await chmod(`${PROC_FDS}/${handle.fd}`, (held.mode & 0o7777) | 0o500);
      return true;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** Without held handles (not Linux): by path, each folder checked by lstat first. */
async function listByPath(folder: PendingFolder): Promise<{ path: string; stat: Stats }[]> {
  const read = (): Promise<string[]> => readdir(folder.path);
  let names: string[];
  try {
    names = await read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EACCES') return [];
    const stat = await lstat(folder.path).catch(() => undefined);
    if (!stat?.isDirectory() || stat.ino !== folder.ino || stat.uid !== process.getuid?.()) return [];
    try {
      // lchmod (macOS) never follows a link swapped in since the lstat
      await lchmod(folder.path, (stat.mode & 0o7777) | 0o500);
      names = await read();
    } catch {
      return [];
    }
  }
  return statAll(names, (name) => ({ path: join(folder.path, name), at: join(folder.path, name) }));
}

async function statAll(
  names: string[],
  locate: (name: string) => { path: string; at: string },
): Promise<{ path: string; stat: Stats }[]> {
  const found: { path: string; stat: Stats }[] = [];
  for (let start = 0; start < names.length; start += STAT_CONCURRENCY) {
    const batch = names.slice(start, start + STAT_CONCURRENCY).map(async (name) => {
      const { path, at } = locate(name);
      const stat = await lstat(at).catch(() => undefined);
      if (stat) found.push({ path, stat });
    });
    await Promise.all(batch);
  }
  return found;
}
