import type Docker from 'dockerode';
import { WorkspacePathError } from '../workspace/workspace-path-error.js';
import { WorkspaceRoot, type FileWriter } from '../workspace/workspace-root.js';
import { fetchFile, sendEntries, type OutgoingEntry } from './archive-transfer.js';
import { runCommand } from './container-command.js';
import { CONTAINER_WORKSPACE } from '../workspace/sandbox-path.js';
import {
  MAX_LISTED_ENTRIES,
  SandboxLister,
  hostManifest,
  manifestEntryOf,
  sameEntry,
  type ManifestEntry,
} from './workspace-manifest.js';

/** files fetched at once from the engine: enough to hide a round trip (each streams to disk, none is held in memory) */
const FETCH_CONCURRENCY = 4;
/** a bigger file (a sparse file costs the sandbox nothing) stays where it is */
export const MAX_SYNCED_FILE_MB = 1024;
/** the files named in the note of those the quota kept in the sandbox */
const NAMED_OVER_QUOTA = 10;
const MIB = 1024 * 1024;
/** paths per `rm` in the sandbox: far below the kernel's argument limit */
const REMOVE_BATCH = 500;
const REMOVE_TIMEOUT_MS = 60_000;

/** What one sync moved, and what it would not. */
export interface SyncReport {
  sent: string[];
  received: string[];
  removedInSandbox: string[];
  removedOnHost: string[];
  /** for the model and the user: links and special files not carried, edits on both sides */
  notes: string[];
}

export interface WorkspaceSyncOptions {
  docker: Docker;
  /** the host folder the user sees */
  workspace: string;
  /** who runs in the sandbox: the listing runs as them, what is sent in belongs to them */
  identity: { user: string; uid: number; gid: number };
  /** files bigger than this are not copied either way (default MAX_SYNCED_FILE_MB) */
  maxFileMb?: number;
  /** the sandbox's listing stops after this many entries (default MAX_LISTED_ENTRIES) */
  maxListedEntries?: number;
  /**
   * the workspace quota (0 or absent: none): a file is brought back only while the user's folder, counted at its
   * files' sizes (what was written there, sparse or not), stays within it
   */
  quotaMb?: number;
}

/** The last state both sides agreed on, per path. */
interface Synced {
  host?: ManifestEntry;
  sandbox?: ManifestEntry;
}

/**
 * Keeps a workspace the engine cannot see (a volume on a remote engine) and the host folder in step through the
 * engine's archive API: before a call, what changed on the host is sent in; after it, what changed in the sandbox is
 * brought back. Changes are judged by size and modification time against the last agreed state, so only changed
 * files move. On the host everything is written through the held workspace root: a link or special file made in
 * the sandbox is never written through, and an edit the user made meanwhile is never overwritten.
 */
export class WorkspaceSync {
  private readonly synced = new Map<string, Synced>();
  private readonly lister: SandboxLister;
  /** the sandbox's workspace was filled from the host since the container or volume was (re)made */
  private filled = false;

  constructor(private readonly options: WorkspaceSyncOptions) {
    this.lister = new SandboxLister(options.docker, options.identity.user, options.maxListedEntries);
  }

  /** A new container or volume: the next push lists the sandbox and makes it match the host folder. */
  reset(): void {
    this.filled = false;
    this.synced.clear();
  }

  /** The sandbox is going away: its lister goes with it. */
  close(): void {
    this.lister.stop();
  }

  /** Sends the host's new and changed files and its deletions; the first time, makes the sandbox match the host. */
  async pushHostChanges(container: Docker.Container, signal?: AbortSignal): Promise<SyncReport> {
    const report = emptyReport();
    const authoritative = !this.filled;
    if (authoritative) {
      this.synced.clear();
      const { manifest: inSandbox } = await this.lister.list(container, signal);
      for (const [path, entry] of inSandbox) this.synced.set(path, { sandbox: entry });
    }
    const root = WorkspaceRoot.open(this.options.workspace);
    try {
      const host = hostManifest(root);
      const removals: string[] = [];
      const outgoing: OutgoingEntry[] = [];
      for (const path of [...host.keys()].sort()) {
        const entry = host.get(path) as ManifestEntry;
        const known = this.synced.get(path);
        if (sameEntry(known?.host, entry)) continue;
        if (entry.kind === 'link' || entry.kind === 'special') {
          report.notes.push(`[Not sent into the sandbox: ${path} is ${kindText(entry)} on the host.]`);
          this.synced.set(path, { ...known, host: entry });
          continue;
        }
        if (entry.kind === 'file' && this.tooBig(entry)) {
          report.notes.push(
            `[Not sent into the sandbox: ${path} is ${Math.round(entry.size / MIB)} MB, over the ` +
              `${this.options.maxFileMb ?? MAX_SYNCED_FILE_MB} MB a file may have to be copied.]`,
          );
          this.synced.set(path, { ...known, host: entry });
          continue;
        }
        if (!known?.host && sameEntry(known?.sandbox, asSent(entry))) {
          this.synced.set(path, { ...known, host: entry });
          continue;
        }
        if (known?.sandbox && known.sandbox.kind !== entry.kind) removals.push(path);
        outgoing.push(
          entry.kind === 'folder'
            ? { kind: 'folder', path, mode: 0o755 }
            : // the sandbox's user can always read and write what it is given; executable bits are kept
              {
                kind: 'file',
                path,
                mode: entry.mode | 0o600,
                mtimeMs: entry.mtimeMs,
                read: () => this.readForSending(root, path, report),
              },
        );
        this.synced.set(path, { host: entry, sandbox: asSent(entry) });
        report.sent.push(path);
      }
      for (const [path, known] of this.synced) {
        if (host.has(path) || !(known.host || (authoritative && known.sandbox))) continue;
        // a sandbox-made link or special file the host never had stays in the sandbox
        if (!authoritative && !known.host) continue;
        removals.push(path);
        this.synced.delete(path);
      }
      await this.removeInSandbox(container, topMost(removals), signal);
      report.removedInSandbox.push(...topMost(removals).filter((path) => !host.has(path)));
      if (outgoing.length > 0) {
        await sendEntries(container, outgoing, this.options.identity, signal);
      }
    } finally {
      root.close();
    }
    this.filled = true;
    return report;
  }

  /** Brings back what the sandbox created, changed or deleted since the last sync. */
  async pullSandboxChanges(container: Docker.Container, signal?: AbortSignal): Promise<SyncReport> {
    const report = emptyReport();
    if (!this.filled) return report;
    const { manifest: inSandbox, complete } = await this.lister.list(container, signal);
    if (!complete) {
      report.notes.push(
        `[The sandbox's workspace holds more than ${this.options.maxListedEntries ?? MAX_LISTED_ENTRIES} entries: only ` +
          "that many were compared, and nothing deleted there is deleted in the user's folder until it holds fewer.]",
      );
    }
    const root = WorkspaceRoot.open(this.options.workspace);
    const receiving = new Set<Promise<void>>();
    try {
      // an entry missing from a cut-short listing may only be beyond its end
      const gone = [...this.synced.entries()]
        .filter(([path, known]) => complete && known.sandbox && !inSandbox.has(path))
        .sort(([a], [b]) => depth(b) - depth(a));
      for (const [path, known] of gone) this.removeOnHost(root, path, known, report);
      const budget = this.hostBudget(root);
      const changed = [...inSandbox.keys()]
        .sort()
        .filter((path) => !sameEntry(this.synced.get(path)?.sandbox, inSandbox.get(path)));
      for (const path of changed) {
        const entry = inSandbox.get(path) as ManifestEntry;
        const transfer = this.bringBack(root, { container, path, entry, budget, report, signal });
        if (!transfer) continue;
        // a few files stream in side by side, each straight to its place on the host
        const tracked: Promise<void> = transfer.finally(() => receiving.delete(tracked));
        receiving.add(tracked);
        if (receiving.size >= FETCH_CONCURRENCY) await Promise.race(receiving);
      }
      await Promise.all(receiving);
      if (budget.overQuota.length > 0) report.notes.push(overQuotaNote(budget, this.options.quotaMb ?? 0));
    } finally {
      // a walk cut short leaves no transfer writing into a closed root
      await Promise.allSettled(receiving);
      root.close();
    }
    return report;
  }

  /** Brings one changed entry back: a folder at once, a file through the transfer returned (undefined: none). */
  private bringBack(root: WorkspaceRoot, pulling: Pulling): Promise<void> | undefined {
    const { path, entry, budget, report } = pulling;
    const known = this.synced.get(path);
    const parts = path.split('/');
    if (entry.kind === 'link' || entry.kind === 'special') {
      // what it replaced in the sandbox goes on the host too (unless the user changed it); the link is not made
      if (known) this.removeOnHost(root, path, known, report);
      this.synced.set(path, { sandbox: entry });
      report.notes.push(notBroughtBack(path, kindText(entry)));
      return undefined;
    }
    this.synced.set(path, { ...known, sandbox: entry });
    try {
      const onHost = hostEntry(root, parts);
      if (onHost && !(onHost.kind === 'folder' && entry.kind === 'folder') && !sameEntry(onHost, known?.host)) {
        // the user's edit wins; it goes back in before the next call
        report.notes.push(
          `[${CONTAINER_WORKSPACE}/${path} changed both in the sandbox and in the user's folder: the user's version is kept.]`,
        );
        return undefined;
      }
      if (entry.kind === 'folder') {
        root.createFolders(parts);
        this.synced.set(path, { sandbox: entry, host: hostEntry(root, parts) });
        return undefined;
      }
      if (this.tooBig(entry)) {
        report.notes.push(tooLargeNote(path, entry.size, this.options.maxFileMb));
        return undefined;
      }
      const reserved = entry.size - (onHost?.kind === 'file' ? onHost.size : 0);
      if (!budget.reserve(reserved)) {
        budget.overQuota.push(path);
        return undefined;
      }
      return this.receive(root, pulling, reserved);
    } catch (error) {
      if (!(error instanceof WorkspacePathError)) throw error;
      report.notes.push(`[Not brought back to the user's folder: ${error.message}]`);
      return undefined;
    }
  }

  /** Streams one file from the sandbox into its place on the host, within the room the budget keeps for it. */
  private async receive(root: WorkspaceRoot, pulling: Pulling, reserved: number): Promise<void> {
    const { container, path, entry, budget, report, signal } = pulling;
    const parts = path.split('/');
    let refusedFor: 'size' | 'quota' | undefined;
    const open = (size: number): FileWriter | undefined => {
      if (size > this.maxFileBytes()) refusedFor = 'size';
      // changed since the listing: a growth needs room too (a shrink gives some back)
      else if (!budget.reserve(size - entry.size)) refusedFor = 'quota';
      return refusedFor ? undefined : root.openForWriting(parts);
    };
    try {
      const fetched = await fetchFile(container, path, open, signal);
      if (fetched.kind === 'file') {
        report.received.push(path);
        this.synced.set(path, { sandbox: entry, host: hostEntry(root, parts) });
        return;
      }
      budget.reserve(-reserved);
      if (fetched.kind === 'other') report.notes.push(notBroughtBack(path, `now a ${fetched.type}`));
      if (fetched.kind !== 'refused') return;
      if (refusedFor === 'size') report.notes.push(tooLargeNote(path, fetched.size, this.options.maxFileMb));
      else budget.overQuota.push(path);
    } catch (error) {
      // part written: what is on the host now is the app's, so the next pull replaces it rather than keeping it
      this.synced.set(path, { host: hostEntry(root, parts) });
      if (!(error instanceof WorkspacePathError)) throw error;
      report.notes.push(`[Not brought back to the user's folder: ${error.message}]`);
    }
  }

  /** What the user's folder holds (files at their sizes) and the room the quota leaves in it. */
  private hostBudget(root: WorkspaceRoot): HostBudget {
    const quotaBytes = (this.options.quotaMb ?? 0) * MIB;
    let held = 0;
    if (quotaBytes > 0) for (const entry of hostManifest(root).values()) if (entry.kind === 'file') held += entry.size;
    return {
      overQuota: [],
      held: () => held,
      reserve: (bytes) => {
        if (quotaBytes > 0 && bytes > 0 && held + bytes > quotaBytes) return false;
        held += bytes;
        return true;
      },
    };
  }

  /** Deleted in the sandbox: deleted on the host too, unless the user changed it there meanwhile. */
  private removeOnHost(root: WorkspaceRoot, path: string, known: Synced, report: SyncReport): void {
    this.synced.delete(path);
    const parts = path.split('/');
    if (!known.host) return;
    try {
      const onHost = hostEntry(root, parts);
      if (!onHost) return;
      if (onHost.kind === 'folder' && known.host.kind === 'folder') root.removeFolder(parts);
      else if (onHost.kind === 'file' && sameEntry(onHost, known.host)) root.removeFile(parts);
      else return;
      report.removedOnHost.push(path);
    } catch (error) {
      // a folder the user added to meanwhile stays, with what they added (sent in before the next call)
      if ((error as NodeJS.ErrnoException).code === 'ENOTEMPTY') return;
      if (!(error instanceof WorkspacePathError)) throw error;
      report.notes.push(
        `[${CONTAINER_WORKSPACE}/${path} was deleted in the sandbox but not on the host: ${error.message}]`,
      );
    }
  }

  private maxFileBytes(): number {
    return (this.options.maxFileMb ?? MAX_SYNCED_FILE_MB) * MIB;
  }

  private tooBig(entry: ManifestEntry | undefined): boolean {
    return entry?.kind === 'file' && entry.size > this.maxFileBytes();
  }

  /** A host file's content as it is now; one that became a link, a folder or vanished is left out and forgotten. */
  private readForSending(root: WorkspaceRoot, path: string, report: SyncReport): Buffer | undefined {
    try {
      const file = root.openFile(path.split('/'), 'read');
      try {
        // grown past the limit since the listing: left out like any file that big
        const content = file.read(this.maxFileBytes() + 1);
        return content.length > this.maxFileBytes() ? this.leaveOut(path, report) : content;
      } finally {
        file.close();
      }
    } catch (error) {
      if (!(error instanceof WorkspacePathError)) throw error;
      return this.leaveOut(path, report);
    }
  }

  /** Not sent after all: the next push looks at it afresh. */
  private leaveOut(path: string, report: SyncReport): undefined {
    this.synced.delete(path);
    report.sent = report.sent.filter((sent) => sent !== path);
    return undefined;
  }

  private async removeInSandbox(container: Docker.Container, paths: string[], signal?: AbortSignal): Promise<void> {
    for (let start = 0; start < paths.length; start += REMOVE_BATCH) {
      const batch = paths.slice(start, start + REMOVE_BATCH).map((path) => `./${path}`);
      await runCommand(this.options.docker, container, ['rm', '-rf', '--', ...batch], {
        user: this.options.identity.user,
        workingDir: CONTAINER_WORKSPACE,
        timeoutMs: REMOVE_TIMEOUT_MS,
        signal,
      });
    }
  }
}

function emptyReport(): SyncReport {
  return { sent: [], received: [], removedInSandbox: [], removedOnHost: [], notes: [] };
}

/** How a sent entry looks in the sandbox's listing: tar keeps whole seconds of the modification time. */
function asSent(entry: ManifestEntry): ManifestEntry {
  return { ...entry, mtimeMs: Math.floor(entry.mtimeMs / 1000) * 1000 };
}

function hostEntry(root: WorkspaceRoot, parts: string[]): ManifestEntry | undefined {
  const stat = root.lstat(parts);
  return stat ? manifestEntryOf(stat) : undefined;
}

/** Paths without those inside another listed path (removing a folder removes what it holds). */
function topMost(paths: string[]): string[] {
  const kept = new Set<string>();
  for (const path of [...new Set(paths)].sort()) {
    const parts = path.split('/');
    if (!parts.some((_, index) => index > 0 && kept.has(parts.slice(0, index).join('/')))) kept.add(path);
  }
  return [...kept];
}

function depth(path: string): number {
  return path.split('/').length;
}

function kindText(entry: ManifestEntry): string {
  return entry.kind === 'link' ? 'a symbolic link' : 'a special file (FIFO, socket or device)';
}

function notBroughtBack(path: string, why: string): string {
  return `[Not brought back to the user's folder: ${CONTAINER_WORKSPACE}/${path} is ${why}; links and special files made in the sandbox are never written on the host.]`;
}

/** One pull's shared state, as each changed entry is brought back. */
interface Pulling {
  container: Docker.Container;
  path: string;
  entry: ManifestEntry;
  budget: HostBudget;
  report: SyncReport;
  signal?: AbortSignal;
}

/** The room the quota leaves in the user's folder while one pull brings files back. */
interface HostBudget {
  /** what the folder holds, with what is being brought back */
  held(): number;
  /** takes (or, negative, gives back) room; false, taking nothing, when it would pass the quota */
  reserve(bytes: number): boolean;
  /** files left in the sandbox for want of room */
  overQuota: string[];
}

function tooLargeNote(path: string, size: number, maxFileMb = MAX_SYNCED_FILE_MB): string {
  return (
    `[Not brought back to the user's folder: ${CONTAINER_WORKSPACE}/${path} is ${Math.round(size / MIB)} MB, ` +
    `over the ${maxFileMb} MB a file may have to be copied; it stays in the sandbox.]`
  );
}

function overQuotaNote(budget: HostBudget, quotaMb: number): string {
  const named = budget.overQuota.slice(0, NAMED_OVER_QUOTA).map((path) => `${CONTAINER_WORKSPACE}/${path}`);
  const more = budget.overQuota.length - named.length;
  return (
    `[Not brought back to the user's folder: ${budget.overQuota.length} file(s) would take it past the workspace ` +
    `quota of ${quotaMb} MB (it holds ${(budget.held() / MIB).toFixed(1)} MB, each file counted at its full size, ` +
    `sparse or not): ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}. They stay in the sandbox; delete ` +
    'files in /workspace to make room. (The quota is the setting sandbox.workspaceQuotaMb.)]'
  );
}
