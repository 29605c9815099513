import { promises as fs } from 'node:fs';
import { join } from 'node:path';

/** enough for a project folder; a workspace larger than this is handed back on later calls */
const MAX_ENTRIES_PER_PASS = 20_000;

/**
 * When the host user is root, the sandbox runs as an unprivileged uid. Before a call everything in the workspace is
 * made group-writable for the sandbox's group; after it, files the sandbox created are given back to the host user.
 */
export async function shareWorkspace(root: string, hostUid: number, sandboxGid: number): Promise<void> {
  let visited = 0;
  const visit = async (path: string): Promise<void> => {
    if (visited++ >= MAX_ENTRIES_PER_PASS) return;
    let stat;
    try {
      stat = await fs.lstat(path);
    } catch {
      return;
    }
    if (stat.isSymbolicLink()) {
      if (stat.uid !== hostUid) await fs.lchown(path, hostUid, sandboxGid).catch(() => undefined);
      return;
    }
    if (stat.uid !== hostUid || stat.gid !== sandboxGid)
      await fs.chown(path, hostUid, sandboxGid).catch(() => undefined);
    const wanted = stat.isDirectory() ? 0o2070 : 0o060;
    if ((stat.mode & wanted) !== wanted) await fs.chmod(path, (stat.mode & 0o7777) | wanted).catch(() => undefined);
    if (!stat.isDirectory()) return;
    let names: string[];
    try {
      names = await fs.readdir(path);
    } catch {
      return;
    }
    for (const name of names) await visit(join(path, name));
  };
  await visit(root);
}
