import { posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type Docker from 'dockerode';
import { extract, pack } from 'tar-stream';
import { CONTAINER_WORKSPACE } from './container-spec.js';

/** What is sent into the sandbox's workspace: folders first, then files, each read only when its turn comes. */
export type OutgoingEntry =
  | { kind: 'folder'; path: string; mode: number }
  | { kind: 'file'; path: string; mode: number; mtimeMs: number; read: () => Buffer };

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
  // the engine's answer settles after the whole tar is read; a refusal before that must not go unheard
  upload.catch(() => undefined);
  for (const entry of entries) {
    const common = { name: entry.path, mode: entry.mode & 0o7777, uid: owner.uid, gid: owner.gid };
    await new Promise<void>((resolve, reject) => {
      const written = (error?: Error): void => (error ? reject(error) : resolve());
      if (entry.kind === 'folder') archive.entry({ ...common, type: 'directory', mtime: new Date() }, written);
      else archive.entry({ ...common, type: 'file', mtime: new Date(entry.mtimeMs) }, entry.read(), written);
    });
  }
  archive.finalize();
  await upload;
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
