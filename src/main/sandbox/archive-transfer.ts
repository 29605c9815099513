import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import type Docker from 'dockerode';
import { extract, pack, type Headers, type Pack } from 'tar-stream';
import { CONTAINER_WORKSPACE } from '../workspace/sandbox-path.js';

/**
 * What is sent into the sandbox's workspace: folders first, then files, each read only when its turn comes (a file
 * that can no longer be read then, undefined, is left out).
 */
export type OutgoingEntry =
  | { kind: 'folder'; path: string; mode: number }
  | { kind: 'file'; path: string; mode: number; mtimeMs: number; read: () => Buffer | undefined };

/** A file fetched from the sandbox (written to where `open` said), or why it was not. */
export type Fetched =
  | { kind: 'file'; size: number }
  | { kind: 'other'; type: string }
  /** `open` refused it at its size: nothing was read */
  | { kind: 'refused'; size: number }
  | { kind: 'gone' };

/** Where a fetched file's content is written, chunk by chunk. */
export interface ContentSink {
  write(chunk: Buffer): void;
  close(): void;
}

/**
 * One tar through the engine's archive API into /workspace, owned by the sandbox's user (the engine extracts as
 * root and keeps the owner the tar names).
 */
export async function sendEntries(
  container: Docker.Container,
  entries: readonly OutgoingEntry[],
  owner: { uid: number; gid: number },
  signal?: AbortSignal,
): Promise<void> {
  const archive = pack();
  const upload = container.putArchive(archive, { path: CONTAINER_WORKSPACE, abortSignal: signal });
  // an engine that refuses or drops the upload stops reading the tar: waiting for the next entry would never end
  const refused = upload.then(
    () => new Promise<never>(() => undefined),
    (error: unknown) => Promise.reject(error instanceof Error ? error : new Error(String(error))),
  );
  refused.catch(() => undefined);
  for (const entry of entries) {
    const header = { name: entry.path, mode: entry.mode & 0o7777, uid: owner.uid, gid: owner.gid };
    let written: Promise<void>;
    if (entry.kind === 'folder') {
      written = addEntry(archive, { ...header, type: 'directory', mtime: new Date() });
    } else {
      const content = entry.read();
      if (content === undefined) continue;
      written = addEntry(archive, { ...header, type: 'file', mtime: new Date(entry.mtimeMs) }, content);
    }
    await Promise.race([written, refused]);
  }
  archive.finalize();
  await upload;
}

function addEntry(archive: Pack, header: Headers, content?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error): void => (error ? reject(error) : resolve());
    if (content) archive.entry(header, content, done);
    else archive.entry(header, done);
  });
}

/**
 * One file of /workspace through the engine's archive API, streamed into the sink `open` gives for its size (its
 * apparent size: a sparse file comes at its full length), so no file is ever held whole in memory. A link (never
 * followed), a folder swapped in, or a size `open` refuses is reported, and the transfer stops at its header.
 */
export async function fetchFile(
  container: Docker.Container,
  path: string,
  open: (size: number) => ContentSink | undefined,
  signal?: AbortSignal,
): Promise<Fetched> {
  let archive: NodeJS.ReadableStream;
  try {
    archive = await container.getArchive({ path: posix.join(CONTAINER_WORKSPACE, path), abortSignal: signal });
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return { kind: 'gone' };
    throw error;
  }
  const response = archive as Readable;
  const reader = extract();
  return new Promise<Fetched>((resolve, reject) => {
    let sink: ContentSink | undefined;
    const stop = (): void => {
      response.unpipe(reader);
      response.destroy();
    };
    const finish = (result: Fetched): void => {
      resolve(result);
      stop();
    };
    const fail = (error: unknown): void => {
      sink?.close();
      sink = undefined;
      reject(error instanceof Error ? error : new Error(String(error)));
      stop();
    };
    // the archive of one path holds that entry first (a folder would bring its content after it)
    reader.once('entry', (header, body) => {
      if (header.type !== 'file') return finish({ kind: 'other', type: header.type ?? '?' });
      const size = header.size ?? 0;
      try {
        sink = open(size);
      } catch (error) {
        return fail(error);
      }
      if (!sink) return finish({ kind: 'refused', size });
      body.on('data', (chunk: Buffer) => {
        try {
          sink?.write(chunk);
        } catch (error) {
          fail(error);
        }
      });
      body.on('end', () => {
        if (!sink) return;
        sink.close();
        sink = undefined;
        finish({ kind: 'file', size });
      });
    });
    reader.on('finish', () => resolve({ kind: 'gone' }));
    reader.on('error', fail);
    response.on('error', fail);
    response.pipe(reader);
  });
}
