import { appendFile, mkdir, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Writable } from 'node:stream';

/** bytes a server's log file may reach before it is rotated to `<log>.1` (the one older file kept) */
export const MAX_SERVER_LOG_BYTES = 1024 * 1024;
/** characters of one log message (a `notifications/message` or a stderr piece) kept: past it, the rest is cut */
export const MAX_LOG_MESSAGE_CHARS = 2_000;

/** A message within MAX_LOG_MESSAGE_CHARS, saying how much of it was cut. */
export function clipLogMessage(text: string): string {
  if (text.length <= MAX_LOG_MESSAGE_CHARS) return text;
  return `${text.slice(0, MAX_LOG_MESSAGE_CHARS)}… [${text.length - MAX_LOG_MESSAGE_CHARS} more characters cut]`;
}

/**
 * One MCP server's log file, written by its stderr and its log messages in the order they came: rotated past
 * MAX_SERVER_LOG_BYTES, so a server that floods its log holds at most twice that on disk.
 */
export class ServerLog {
  private writing: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  /** Appends `text` (clipped to the file's size); never throws: a log that cannot be written is not the run's problem. */
  write(text: string): Promise<void> {
    const entry = Buffer.from(text).subarray(0, MAX_SERVER_LOG_BYTES);
    this.writing = this.writing.then(() => this.append(entry)).catch(() => undefined);
    return this.writing;
  }

  /** A stream whose chunks go to the log (a stdio server's stderr is piped here). */
  stream(): Writable {
    return new Writable({
      write: (chunk: Buffer | string, _encoding, done) => {
        void this.write(chunk.toString()).then(() => done());
      },
    });
  }

  private async append(entry: Buffer): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    // the size on disk, not a count of our own writes: the same server's log may be written by other sessions too
    const size = await stat(this.path).then(
      (stats) => stats.size,
      () => 0,
    );
    if (size > 0 && size + entry.length > MAX_SERVER_LOG_BYTES) await rename(this.path, `${this.path}.1`);
    await appendFile(this.path, entry);
  }
}
