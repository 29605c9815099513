import type Docker from 'dockerode';
import {
  DocumentReaderAnswerSchema,
  type DocumentText,
  type DocumentReaderAnswer,
} from '../../shared/document-text.js';
import type { SandboxSettings } from '../../shared/settings/sandbox-settings.js';
import { ContainerHelper } from '../sandbox/container-helper.js';
import { DOCUMENT_EXTRACT_SOURCE, DOCUMENT_TEXT_SOURCE } from '../sandbox/drivers/sources.js';
import { chooseEngine } from '../sandbox/engine-choice.js';
import { SandboxUnavailableError, dockerClient, errorText } from '../sandbox/engine.js';
import { ensureImage } from '../sandbox/sandbox-image.js';
import { SANDBOX_GID, SANDBOX_UID } from '../sandbox/workspace-owner.js';
import { readerContainerSpec } from './reader-container.js';

const MIB = 1024 * 1024;
/** what one document may cost: larger files are refused before they are sent, the rest are stopped at their limit */
export const DEFAULT_DOCUMENT_LIMITS: DocumentReaderLimits = { timeoutSeconds: 60, memoryMb: 1024, maxBytes: 64 * MIB };
/** an idle reader container is removed after this long; the next document starts one again (about a second) */
const READER_IDLE_MS = 120_000;
/** sending a large document and reading its answer, beyond the document's own time limit */
const TRANSFER_MARGIN_MS = 30_000;

export interface DocumentReaderLimits {
  timeoutSeconds: number;
  memoryMb: number;
  maxBytes: number;
}

/** A document that cannot be read (encrypted, corrupt, too large, a zip bomb...): `reason` says which, for people. */
export class DocumentUnreadableError extends Error {
  override readonly name = 'DocumentUnreadableError';
}

export interface ReadOptions {
  /** the pages (slides, sheets, chapters) wanted, first and last, counted from 1; all when absent */
  pages?: readonly [number, number];
  signal?: AbortSignal;
}

export interface DocumentReaderOptions {
  docker: Docker;
  image: string;
  /** the data folder's owner label, so the sweep of that folder knows the container */
  owner?: string;
  limits?: Partial<DocumentReaderLimits>;
  idleMs?: number;
}

/**
 * Reads documents into text with locations, one at a time, in a reader container with no network and no host folder
 * (reader-container.ts), never in this process: the document goes in on the supervisor's stdin and each one is read by
 * a child with its own memory and time limits (resources/sandbox/drivers/document_text.py).
 */
export class DocumentReader {
  readonly limits: DocumentReaderLimits;
  private container: Promise<Docker.Container> | undefined;
  private readonly helper: ContainerHelper;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private busy = 0;

  constructor(private readonly options: DocumentReaderOptions) {
    this.limits = { ...DEFAULT_DOCUMENT_LIMITS, ...options.limits };
    this.helper = new ContainerHelper(options.docker, `${SANDBOX_UID}:${SANDBOX_GID}`, {
      source: DOCUMENT_TEXT_SOURCE,
      args: [DOCUMENT_EXTRACT_SOURCE],
      name: 'the document reader',
      timeoutMs: this.limits.timeoutSeconds * 1000 + TRANSFER_MARGIN_MS,
    });
  }

  /** The text of one document; throws DocumentUnreadableError with the reason when it cannot be read. */
  async read(name: string, content: Uint8Array, options: ReadOptions = {}): Promise<DocumentText> {
    this.checkSize(content.byteLength);
    const id = this.nextId++;
    const request = {
      id,
      name,
      data: Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('base64'),
      pages: options.pages ?? null,
      limits: { timeoutSeconds: this.limits.timeoutSeconds, memoryMb: this.limits.memoryMb },
    };
    this.busy += 1;
    clearTimeout(this.idleTimer);
    try {
      const container = await this.startedContainer();
      const { line } = await this.helper.ask(container, `${JSON.stringify(request)}\n`, options.signal);
      const answer = parseAnswer(line);
      if (!answer.ok) throw new DocumentUnreadableError(answer.reason);
      if (answer.id !== id) throw new Error(`the document reader answered document ${answer.id} for ${id}`);
      const { format, units, passages, notes } = answer;
      return { format, units, passages, notes };
    } finally {
      this.busy -= 1;
      if (this.busy === 0) this.idleTimer = setTimeout(() => void this.close(), this.options.idleMs ?? READER_IDLE_MS);
      this.idleTimer?.unref();
    }
  }

  /** Throws DocumentUnreadableError for a document too large to read (checked before its bytes are read). */
  checkSize(bytes: number): void {
    if (bytes <= this.limits.maxBytes) return;
    throw new DocumentUnreadableError(
      `it is ${(bytes / MIB).toFixed(1)} MB; documents over ${(this.limits.maxBytes / MIB).toFixed(1)} MB are not read`,
    );
  }

  /** Removes the reader container (the next read starts a new one). */
  async close(): Promise<void> {
    clearTimeout(this.idleTimer);
    const container = this.container;
    this.container = undefined;
    this.helper.stop();
    if (!container) return;
    await container.then((made) => made.remove({ force: true })).catch(() => undefined);
  }

  private startedContainer(): Promise<Docker.Container> {
    this.container ??= this.startContainer().catch((error: unknown) => {
      this.container = undefined;
      throw error;
    });
    return this.container;
  }

  private async startContainer(): Promise<Docker.Container> {
    const { docker, image, owner } = this.options;
    await ensureImage(docker, image);
    try {
      const container = await docker.createContainer(readerContainerSpec(image, owner));
      await container.start();
      return container;
    } catch (error) {
      throw new SandboxUnavailableError(`The document reader could not start: ${errorText(error)}`);
    }
  }
}

function parseAnswer(line: string): DocumentReaderAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new Error('the document reader answered something that is not JSON');
  }
  const answer = DocumentReaderAnswerSchema.safeParse(parsed);
  if (!answer.success) throw new Error(`the document reader's answer is not of its form: ${answer.error.message}`);
  return answer.data;
}

/** readers shared by the sessions of this process, one per engine and image */
const sharedReaders = new Map<string, DocumentReader>();

/** The reader for these sandbox settings; documents need Docker, whatever the sandbox mode. */
export function documentReaderFor(settings: SandboxSettings, owner?: string): DocumentReader {
  const engine = chooseEngine(settings.engine);
  const key = `${engine.endpoint} ${settings.image}`;
  let reader = sharedReaders.get(key);
  if (!reader) {
    reader = new DocumentReader({ docker: dockerClient(engine), image: settings.image, ...(owner ? { owner } : {}) });
    sharedReaders.set(key, reader);
  }
  return reader;
}
