import {
  closeSync,
  constants,
  existsSync,
  fchownSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  rmdirSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { CONTAINER_WORKSPACE } from './sandbox-path.js';
import { outsideRefusal, pathParts, requestedParts } from './requested-path.js';
import { WorkspacePathError } from './workspace-path-error.js';

/** Linux names an entry of an open folder by this path: every lookup then starts at the held handle, not a path */
const PROC_FDS = '/proc/self/fd';
const HELD_HANDLES = process.platform === 'linux' && existsSync(PROC_FDS);
/** symbolic links followed inside the workspace while resolving one path, like the kernel's limit */
const MAX_LINK_HOPS = 40;
const READ_CHUNK = 64 * 1024;

/** a final link is never followed; O_NONBLOCK: a FIFO swapped in after the check cannot block the open */
const NO_FOLLOW = (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
const FOLDER_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | NO_FOLLOW;

/** A folder of the workspace, open where handles are used; `parts` locate it from the root. */
interface Folder {
  /** undefined where lookups go by path (not Linux) */
  fd: number | undefined;
  parts: readonly string[];
  /** false for the root's own handle, closed only by close() */
  owned: boolean;
}

/** What a path the model gave leads to, inside the workspace. */
export interface WorkspaceTarget {
  /** path parts from the root, [] for the root itself; real folders and a final name, no link among them */
  parts: string[];
  /** relative to the root, '/'-separated ('' for the root) */
  relative: string;
  /** as the model sees it: /workspace/... (or the host path in local mode) */
  shown: string;
  /** the host path, for messages and for opening with the system */
  host: string;
}

/** A regular file of the workspace, open. */
export interface OpenedFile {
  readonly stat: Stats;
  /** from the start, up to `limit` bytes */
  read(limit?: number): Buffer;
  /** replaces the whole content through this handle */
  overwrite(content: Uint8Array): void;
  close(): void;
}

/** A regular file of the workspace, open for new content: each chunk goes after the last. */
export interface FileWriter {
  write(chunk: Uint8Array): void;
  close(): void;
}

export interface RootOptions {
  /** name paths by their host path, not /workspace/... (the local sandbox, where the agent sees host paths) */
  showHostPaths?: boolean;
}

export interface TreeEntry {
  name: string;
  /** parts from the root */
  parts: string[];
  /** lstat: a link is reported as a link, never followed */
  stat: Stats;
}

/**
 * The session workspace, held open: every host-side file operation on it goes through here, relative to the held
 * handle of its root, one component at a time, never following a symbolic link. Sandbox code can swap any entry for
 * a link at any moment; a swap between a check and an open makes the open fail instead of leaving the workspace.
 *
 * Linux walks through `/proc/self/fd/<folder>/<name>` with O_NOFOLLOW, so no lookup ever goes through a path
 * string the sandbox could change. Elsewhere (weaker, there is no such path): each component is lstat'ed on the host
 * path and the final file opened with O_NOFOLLOW and checked against that lstat (same device and inode), which
 * catches a swapped final entry but leaves a short window on the parent folders; folders it creates keep the
 * process's owner.
 */
export class WorkspaceRoot {
  private readonly root: Folder;

  private constructor(
    /** the root as resolved on the host */
    readonly hostPath: string,
    /** the root as the caller named it (a host path inside it may use either) */
    private readonly givenPath: string,
    fd: number | undefined,
    private readonly owner: { uid: number; gid: number },
    private readonly shownRoot: string,
  ) {
    this.root = { fd, parts: [], owned: false };
  }

  /** Opens the workspace folder (created when missing); messages name paths /workspace/... or by host path. */
  static open(workspace: string, options: RootOptions = {}): WorkspaceRoot {
    mkdirSync(workspace, { recursive: true });
    const hostPath = realpathSync(workspace);
    const fd = HELD_HANDLES ? openSync(hostPath, constants.O_RDONLY | (constants.O_DIRECTORY ?? 0)) : undefined;
    const stat = fd === undefined ? lstatSync(hostPath) : fstatSync(fd);
    return new WorkspaceRoot(
      hostPath,
      resolve(workspace),
      fd,
      { uid: stat.uid, gid: stat.gid },
      options.showHostPaths ? hostPath : CONTAINER_WORKSPACE,
    );
  }

  /** Runs `work` with the workspace open, closing it after. */
  static with<T>(workspace: string, work: (root: WorkspaceRoot) => T, options: RootOptions = {}): T {
    const root = WorkspaceRoot.open(workspace, options);
    try {
      return work(root);
    } finally {
      root.close();
    }
  }

  close(): void {
    if (this.root.fd !== undefined) closeSync(this.root.fd);
  }

  /**
   * Where a path the model gave leads: `..` may not leave the root, and a symbolic link is followed only by reading
   * it here and walking on inside the workspace (a link whose target is outside is refused).
   */
  target(requested: string): WorkspaceTarget {
    const pending = requestedParts(requested, this.hostRoots());
    const done: string[] = [];
    let hops = 0;
    for (let name = pending.shift(); name !== undefined; name = pending.shift()) {
      if (name === '..') {
        if (done.length === 0) throw hops > 0 ? linkOutRefusal(requested) : outsideRefusal(requested);
        done.pop();
        continue;
      }
      if (!this.lstat([...done, name])?.isSymbolicLink()) {
        done.push(name);
        continue;
      }
      if (++hops > MAX_LINK_HOPS) {
        throw new WorkspacePathError(
          'link',
          `${requested} goes through too many symbolic links (a loop?); it is refused.`,
        );
      }
      const link = this.link([...done, name]);
      if (!link) throw linkOutRefusal(requested);
      if (link.fromRoot) done.length = 0;
      pending.unshift(...link.parts);
    }
    return this.describe(done);
  }

  describe(parts: readonly string[]): WorkspaceTarget {
    const relative = parts.join('/');
    return {
      parts: [...parts],
      relative,
      shown: relative ? `${this.shownRoot}/${relative}` : this.shownRoot,
      host: join(this.hostPath, ...parts),
    };
  }

  /** The entry itself (a link is not followed); undefined when it or a folder on the way is missing. */
  lstat(parts: readonly string[]): Stats | undefined {
    if (parts.length === 0) return this.root.fd === undefined ? lstatSync(this.hostPath) : fstatSync(this.root.fd);
    return this.inParent(parts, (folder, name) => lstatSync(this.entryPath(folder, name), { throwIfNoEntry: false }), {
      missingParent: () => undefined,
    });
  }

  /** Opens a regular file; a folder, link, FIFO, socket or device is refused without being opened. */
  openFile(parts: readonly string[], mode: 'read' | 'update'): OpenedFile {
    const { fd, stat } = this.openRegular(parts, mode === 'read' ? constants.O_RDONLY : constants.O_RDWR);
    return fileHandle(fd, stat);
  }

  private openRegular(parts: readonly string[], flags: number): { fd: number; stat: Stats } {
    return this.inParent(parts, (folder, name) => {
      const path = this.entryPath(folder, name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (!stat) throw this.refusal('missing', parts, 'does not exist');
      this.requireRegular(stat, parts);
      const fd = this.openNoFollow(path, flags, parts);
      try {
        const opened = fstatSync(fd);
        if (!sameEntry(opened, stat)) throw this.refusal('changed', parts, 'changed while it was being opened');
        return { fd, stat: opened };
      } catch (error) {
        closeSync(fd);
        throw error;
      }
    });
  }

  /** Creates a new file (never through an existing entry or link) and the folders on its way. */
  createFile(parts: readonly string[], content: Uint8Array | { copyOf: string }): void {
    const fd = this.createNew(parts);
    try {
      if (content instanceof Uint8Array) writeAll(fd, content);
      else copyInto(fd, content.copyOf);
    } finally {
      closeSync(fd);
    }
  }

  /** Replaces a regular file's content, or creates it when missing. */
  writeFile(parts: readonly string[], content: Uint8Array): void {
    const writer = this.openForWriting(parts);
    try {
      writer.write(content);
    } finally {
      writer.close();
    }
  }

  /** A regular file emptied to be written a chunk at a time, or a new one (and the folders on its way) when missing. */
  openForWriting(parts: readonly string[]): FileWriter {
    let fd: number;
    try {
      fd = this.createNew(parts);
    } catch (error) {
      if (!(error instanceof WorkspacePathError && error.reason === 'exists')) throw error;
      fd = this.openRegular(parts, constants.O_WRONLY).fd;
      ftruncateSync(fd, 0);
    }
    return { write: (chunk) => writeAll(fd, chunk), close: () => closeSync(fd) };
  }

  /** A new file's handle, never made through an existing entry or link; given to the workspace's owner. */
  private createNew(parts: readonly string[]): number {
    return this.inParent(
      parts,
      (folder, name) => {
        const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
        let fd: number;
        try {
          fd = openSync(this.entryPath(folder, name), flags | NO_FOLLOW, 0o666);
        } catch (error) {
          if (errorCode(error) === 'EEXIST') throw this.refusal('exists', parts, 'already exists');
          throw error;
        }
        try {
          this.giveToOwner(fd);
        } catch (error) {
          closeSync(fd);
          throw error;
        }
        return fd;
      },
      { createFolders: true },
    );
  }

  /** Creates a folder and its parents (an existing folder is fine, a link or file in the way is refused). */
  createFolders(parts: readonly string[]): void {
    this.release(this.openFolder(parts, true));
  }

  /** Removes a file or link (never a folder, never what a link points to). */
  removeFile(parts: readonly string[]): void {
    this.inParent(parts, (folder, name) => {
      const path = this.entryPath(folder, name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (!stat) return;
      if (stat.isDirectory()) throw this.refusal('folder', parts, 'is a folder');
      unlinkSync(path);
    });
  }

  /** Removes an empty folder (a link in its place is refused by rmdir itself, never followed). */
  removeFolder(parts: readonly string[]): void {
    this.inParent(parts, (folder, name) => rmdirSync(this.entryPath(folder, name)));
  }

  /** The entries of a folder, each lstat'ed (links reported as links). */
  list(parts: readonly string[]): TreeEntry[] {
    const folder = this.openFolder(parts, false);
    try {
      const entries: TreeEntry[] = [];
      for (const name of readdirSync(this.folderPath(folder))) {
        const stat = lstatSync(this.entryPath(folder, name), { throwIfNoEntry: false });
        if (stat) entries.push({ name, parts: [...parts, name], stat });
      }
      return entries;
    } finally {
      this.release(folder);
    }
  }

  private hostRoots(): string[] {
    return [this.hostPath, this.givenPath];
  }

  /** A link's target as parts, or undefined when it points outside the workspace. */
  private link(parts: readonly string[]): { parts: string[]; fromRoot: boolean } | undefined {
    const target = this.inParent(parts, (folder, name) => {
      try {
        return readlinkSync(this.entryPath(folder, name));
      } catch (error) {
        // EINVAL: no longer a link
        if (errorCode(error) === 'EINVAL') throw this.refusal('changed', parts, 'changed while it was being read');
        throw error;
      }
    });
    return pathParts(target, this.hostRoots());
  }

  /** Runs `work` on the open parent folder of `parts` and the final name, closing the folder after. */
  private inParent<T>(
    parts: readonly string[],
    work: (folder: Folder, name: string) => T,
    options: { createFolders?: boolean; missingParent?: () => T } = {},
  ): T {
    const name = parts.at(-1);
    if (name === undefined) throw this.refusal('folder', parts, 'is the workspace folder itself');
    let folder: Folder;
    try {
      folder = this.openFolder(parts.slice(0, -1), options.createFolders ?? false);
    } catch (error) {
      if (options.missingParent && error instanceof WorkspacePathError && error.reason === 'missing') {
        return options.missingParent();
      }
      throw error;
    }
    try {
      return work(folder, name);
    } finally {
      this.release(folder);
    }
  }

  /** Opens the folder at `parts` one component at a time, holding only the current one open. */
  private openFolder(parts: readonly string[], create: boolean): Folder {
    let folder = this.root;
    try {
      for (const name of parts) {
        const child = this.openChildFolder(folder, name, create);
        this.release(folder);
        folder = child;
      }
      return folder;
    } catch (error) {
      this.release(folder);
      throw error;
    }
  }

  private openChildFolder(folder: Folder, name: string, create: boolean): Folder {
    const parts = [...folder.parts, name];
    const path = this.entryPath(folder, name);
    let stat = lstatSync(path, { throwIfNoEntry: false });
    let created = false;
    if (!stat && create) {
      try {
        mkdirSync(path, 0o777);
        created = true;
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      stat = lstatSync(path, { throwIfNoEntry: false });
    }
    if (!stat) throw this.refusal('missing', parts, 'does not exist');
    if (stat.isSymbolicLink()) throw this.refusal('link', parts, 'is a symbolic link; it is not followed');
    if (!stat.isDirectory()) throw this.refusal('not_folder', parts, 'is not a folder');
    if (!HELD_HANDLES) return { fd: undefined, parts, owned: false };
    const fd = this.openNoFollow(path, FOLDER_FLAGS, parts);
    try {
      const opened = fstatSync(fd);
      if (!sameEntry(opened, stat) || !opened.isDirectory()) {
        throw this.refusal('changed', parts, 'changed while it was being opened');
      }
      if (created) this.giveToOwner(fd);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    return { fd, parts, owned: true };
  }

  private openNoFollow(path: string, flags: number, parts: readonly string[]): number {
    try {
      return openSync(path, flags | NO_FOLLOW);
    } catch (error) {
      const code = errorCode(error);
      // ELOOP: now a link; ENOTDIR: no longer a folder; ENXIO: now a FIFO without a reader or a socket
      if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENXIO' || code === 'EMLINK') {
        throw this.refusal(
          'changed',
          parts,
          'changed while it was being opened (it was swapped for a link or special file)',
        );
      }
      throw error;
    }
  }

  private requireRegular(stat: Stats, parts: readonly string[]): void {
    if (stat.isFile()) return;
    if (stat.isDirectory()) throw this.refusal('folder', parts, 'is a folder; this needs a file');
    if (stat.isSymbolicLink()) throw this.refusal('link', parts, 'is a symbolic link; it is not followed');
    throw this.refusal('special', parts, `is ${specialKind(stat)}, not a regular file; it is never opened`);
  }

  /** As root on the host, what the host creates belongs to the workspace folder's owner, like the rest of it. */
  private giveToOwner(fd: number): void {
    if (process.getuid?.() === 0) fchownSync(fd, this.owner.uid, this.owner.gid);
  }

  private folderPath(folder: Folder): string {
    return folder.fd === undefined ? join(this.hostPath, ...folder.parts) : `${PROC_FDS}/${folder.fd}`;
  }

  private entryPath(folder: Folder, name: string): string {
    // a name is one plain component: '..' or a separator here would step out of the held folder
    if (
      name === '' ||
      name === '.' ||
      name === '..' ||
      name.includes('/') ||
      name.includes(sep) ||
      name.includes('\0')
    ) {
      throw new WorkspacePathError('outside', `"${name}" is not a plain file name; it is refused.`);
    }
    return `${this.folderPath(folder)}/${name}`;
  }

  private release(folder: Folder): void {
    if (folder.owned && folder.fd !== undefined) closeSync(folder.fd);
  }

  private refusal(reason: WorkspacePathError['reason'], parts: readonly string[], what: string): WorkspacePathError {
    return new WorkspacePathError(reason, `${this.describe(parts).shown} ${what}.`);
  }
}

function linkOutRefusal(requested: string): WorkspacePathError {
  return new WorkspacePathError(
    'outside',
    `${requested} leads outside the workspace through a symbolic link; it is refused.`,
  );
}

function fileHandle(fd: number, stat: Stats): OpenedFile {
  return {
    stat,
    read: (limit = Number.MAX_SAFE_INTEGER) => readFrom(fd, limit),
    overwrite: (content) => {
      ftruncateSync(fd, 0);
      writeAll(fd, content, 0);
    },
    close: () => closeSync(fd),
  };
}

function readFrom(fd: number, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const chunk = Buffer.alloc(Math.min(READ_CHUNK, limit - total));
    const count = readSync(fd, chunk, 0, chunk.length, total);
    if (count === 0) break;
    chunks.push(chunk.subarray(0, count));
    total += count;
  }
  return Buffer.concat(chunks, total);
}

/** Copies a host file (the caller's own, outside the workspace) into `fd`, a chunk at a time. */
function copyInto(fd: number, source: string): void {
  const from = openSync(source, constants.O_RDONLY);
  try {
    const chunk = Buffer.alloc(READ_CHUNK);
    for (let count = readSync(from, chunk); count > 0; count = readSync(from, chunk)) {
      writeAll(fd, chunk.subarray(0, count));
    }
  } finally {
    closeSync(from);
  }
}

function writeAll(fd: number, content: Uint8Array, position?: number): void {
  for (let written = 0; written < content.length;) {
    written += writeSync(
      fd,
      content,
      written,
      content.length - written,
      position === undefined ? null : position + written,
    );
  }
}

function sameEntry(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

function specialKind(stat: Stats): string {
  if (stat.isFIFO()) return 'a named pipe (FIFO)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'a special file';
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}
