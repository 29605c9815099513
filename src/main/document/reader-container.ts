import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import { currentProcess } from '../process/owner-process.js';
import {
  OWNER_LABEL,
  SANDBOX_LABEL,
  SESSION_LABEL,
  ownerProcessLabels,
  sandboxEnv,
} from '../sandbox/container-spec.js';
import { SANDBOX_GID, SANDBOX_UID } from '../sandbox/workspace-owner.js';

/** what the reader's containers are labelled as instead of a session id (the orphan sweep takes them with the rest) */
export const READER_SESSION = 'document-reader';
const MIB = 1024 * 1024;
/** the supervisor and one document's reader, OCR included, with room for its own memory limit (DocumentReaderLimits) */
const READER_MEMORY_MB = 1536;
/** the document, OCR page images and the answer live in /tmp */
const READER_TMPFS_MB = 768;
const READER_PIDS = 64;

/**
 * The container documents are read in: no network, no host folder, nothing writable but a small /tmp, every capability
 * dropped; the document arrives on the reader's stdin. Documents are hostile input: a parser they exploit finds an
 * empty box with no way out.
 */
export function readerContainerSpec(image: string, owner?: string): Docker.ContainerCreateOptions {
  return {
    Image: image,
    name: `manus-document-reader-${randomBytes(6).toString('hex')}`,
    Labels: {
      [SANDBOX_LABEL]: '1',
      [SESSION_LABEL]: READER_SESSION,
      ...(owner ? { [OWNER_LABEL]: owner } : {}),
      ...ownerProcessLabels(currentProcess()),
    },
    Cmd: ['sleep', 'infinity'],
    Entrypoint: [],
    User: `${SANDBOX_UID}:${SANDBOX_GID}`,
    WorkingDir: '/tmp',
    Env: sandboxEnv(),
    Tty: false,
    HostConfig: {
      // no network: a document cannot fetch anything or send what it read anywhere
      NetworkMode: 'none',
      // no host path at all: the document comes in on stdin
      Mounts: [],
      ReadonlyRootfs: true,
      Tmpfs: { '/tmp': `rw,nosuid,nodev,noexec,size=${READER_TMPFS_MB}m,mode=1777` },
      CapDrop: ['ALL'],
      SecurityOpt: ['no-new-privileges'],
      // a decompression bomb is killed inside the box (each document also has its own, smaller limit)
      Memory: READER_MEMORY_MB * MIB,
      MemorySwap: READER_MEMORY_MB * MIB,
      NanoCpus: 1e9,
      PidsLimit: READER_PIDS,
      Init: true,
      IpcMode: 'private',
      RestartPolicy: { Name: 'no' },
    },
  };
}
