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

/** A file fetched from the sandbox, or why it was not (it became a link, a folder... between listing and fetch). */
export type Fetched =
  | { kind: 'file'; content: Buffer }
  | { kind: 'other'; type: string }
  | { kind: 'too large'; size: number }
  | { kind: 'gone' };

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
 * One file of /workspace through the engine's archive API, read only when it is a regular file within `maxBytes`: a
 * link (never followed), a folder swapped in, or a file grown too big (a sparse file costs the sandbox nothing) is
 * reported, and the transfer stops at its header.
 */
export async function fetchFile(
  container: Docker.Container,
  path: string,
  maxBytes: number,
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
    const finish = (result: Fetched): void => {
      resolve(result);
      response.unpipe(reader);
      response.destroy();
    };
    // the archive of one path holds that entry first (a folder would bring its content after it)
    reader.once('entry', (header, body) => {
      if (header.type !== 'file') return finish({ kind: 'other', type: header.type ?? '?' });
      if ((header.size ?? 0) > maxBytes) return finish({ kind: 'too large', size: header.size ?? 0 });
      const chunks: Buffer[] = [];
      body.on('data', (chunk: Buffer) => chunks.push(chunk));
      body.on('end', () => finish({ kind: 'file', content: Buffer.concat(chunks) }));
    });
    reader.on('finish', () => resolve({ kind: 'gone' }));
    reader.on('error', reject);
    response.on('error', reject);
    response.pipe(reader);
  });
}
