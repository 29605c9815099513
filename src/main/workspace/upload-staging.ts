import { randomUUID } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/** the data folder's subfolder where uploads wait, one folder per process */
const STAGING_FOLDER = 'upload-staging';
/** uploads begun and not yet sent with a message; more are refused until some are sent or dropped */
const MAX_PENDING = 100;
/** a folder left by a process that is gone is swept when it is this old */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;
const MB = 1024 * 1024;

export type UploadRefusal = 'too_large' | 'too_many' | 'unknown_upload' | 'out_of_order' | 'incomplete';

export class UploadError extends Error {
  constructor(
    readonly code: UploadRefusal,
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

/** A finished upload handed over to be moved into a workspace. */
export interface StagedFile {
  name: string;
  /** the host file holding its bytes */
  path: string;
}

interface PendingUpload extends StagedFile {
  size: number;
  received: number;
}

/**
 * Files on their way in, written to disk chunk by chunk as they arrive (never held whole in memory), until a
 * message or a drop names them. The size limit is read per upload, so a changed setting applies at once.
 */
export class UploadStaging {
  private readonly pending = new Map<string, PendingUpload>();
  private readonly folder: string;

  constructor(
    dataDir: string,
    private readonly maxBytes: () => number,
  ) {
    const parent = join(dataDir, STAGING_FOLDER);
    sweepAbandoned(parent);
    this.folder = join(parent, `${process.pid}-${randomUUID().slice(0, 8)}`);
  }

  /** Registers an upload of `size` bytes; refused over the limit before a byte is sent. */
  begin(name: string, size: number): string {
    const limit = this.maxBytes();
    if (size > limit) {
      throw new UploadError(
        'too_large',
        `${name} is ${(size / MB).toFixed(1)} MB; files up to ${Math.floor(limit / MB)} MB can be attached.`,
        'Raise the limit with the uploads.maxFileMb setting, or attach a smaller file.',
      );
    }
    if (this.pending.size >= MAX_PENDING) {
      throw new UploadError('too_many', `${MAX_PENDING} uploads are waiting to be sent already.`);
    }
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const uploadId = randomUUID();
    const path = join(this.folder, uploadId);
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
    this.pending.set(uploadId, { name, path, size, received: 0 });
    return uploadId;
  }

  /** Writes the next chunk where the last one ended; returns the bytes received so far. */
  append(uploadId: string, offset: number, chunk: Uint8Array): number {
    const upload = this.require(uploadId);
    if (offset !== upload.received) {
      throw new UploadError('out_of_order', `Expected the chunk at ${upload.received}, got one at ${offset}.`);
    }
    if (upload.received + chunk.length > upload.size) {
      throw new UploadError('too_large', `${upload.name} is longer than the ${upload.size} bytes announced.`);
    }
    const fd = openSync(upload.path, constants.O_WRONLY | constants.O_NOFOLLOW);
    try {
      for (let written = 0; written < chunk.length;) {
        written += writeSync(fd, chunk, written, chunk.length - written, offset + written);
      }
      upload.received = fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
    return upload.received;
  }

  /** Checks that every upload named is known and complete, without taking any. */
  check(uploadIds: readonly string[]): void {
    for (const uploadId of uploadIds) {
      const upload = this.require(uploadId);
      if (upload.received !== upload.size) {
        throw new UploadError(
          'incomplete',
          `${upload.name} is not fully uploaded (${upload.received} of ${upload.size} bytes).`,
          'Wait for the upload to finish, then send again.',
        );
      }
    }
  }

  /** Hands the finished uploads over (in order) and forgets them; `done` removes their staged bytes. */
  take(uploadIds: readonly string[]): { files: StagedFile[]; done: () => void } {
    this.check(uploadIds);
    const files = uploadIds.map((uploadId) => {
      const { name, path } = this.require(uploadId);
      this.pending.delete(uploadId);
      return { name, path };
    });
    return { files, done: () => files.forEach(({ path }) => rmSync(path, { force: true })) };
  }

  discard(uploadId: string): void {
    const upload = this.pending.get(uploadId);
    if (!upload) return;
    this.pending.delete(uploadId);
    rmSync(upload.path, { force: true });
  }

  close(): void {
    this.pending.clear();
    rmSync(this.folder, { recursive: true, force: true });
  }

  private require(uploadId: string): PendingUpload {
    const upload = this.pending.get(uploadId);
    if (!upload) {
      throw new UploadError(
        'unknown_upload',
        'This upload is not known (it was sent already, dropped, or the app restarted).',
        'Attach the file again.',
      );
    }
    return upload;
  }
}

/** Folders of processes long gone (killed before they could clean up) are removed. */
function sweepAbandoned(parent: string): void {
  let entries: string[];
  try {
    entries = readdirSync(parent);
  } catch {
    return;
  }
  const now = Date.now();
  for (const entry of entries) {
    const path = join(parent, entry);
    try {
      if (now - statSync(path).mtimeMs > ABANDONED_AFTER_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // removed meanwhile
    }
  }
}
