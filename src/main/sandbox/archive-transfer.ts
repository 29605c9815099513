import { posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type Docker from 'dockerode';
import { extract, pack, type Headers, type Pack } from 'tar-stream';
import { CONTAINER_WORKSPACE } from './container-spec.js';

/**
 * What is sent into the sandbox's workspace: folders first, then files, each read only when its turn comes (a file
 * that can no longer be read then, undefined, is left out).
 */
export type OutgoingEntry =
  | { kind: 'folder'; path: string; mode: number }
  | { kind: 'file'; path: string; mode: number; mtimeMs: number; read: () => Buffer | undefined };

/** A file fetched from the sandbox, or why it was not (it became a link, a folder... between listing and fetch). */
export type Fetched = { kind: 'file'; content: Buffer } | { kind: 'other'; type: string } | { kind: 'gone' };

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

/** One file of /workspace through the engine's archive API; a link is reported as such, never followed. */
export async function fetchFile(container: Docker.Container, path: string, signal?: AbortSignal): Promise<Fetched> {
  let archive: NodeJS.ReadableStream;
  try {
    archive = await container.getArchive({ path: posix.join(CONTAINER_WORKSPACE, path), abortSignal: signal });
  } catch (error) {
    if ((error as { statusCode?: number }).statusCode === 404) return { kind: 'gone' };
    throw error;
  }
  let fetched: Fetched = { kind: 'gone' };
  const reader = extract();
  reader.on('entry', (header, body, next) => {
    const chunks: Buffer[] = [];
    body.on('data', (chunk: Buffer) => chunks.push(chunk));
    body.on('end', () => {
      // the archive of one path holds that entry first (a folder would bring its content after it)
      if (fetched.kind === 'gone') {
        fetched =
          header.type === 'file'
            ? { kind: 'file', content: Buffer.concat(chunks) }
            : { kind: 'other', type: header.type ?? '?' };
      }
      next();
    });
  });
  await pipeline(archive, reader);
  return fetched;
}
