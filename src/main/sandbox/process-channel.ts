/**
 * A long-lived process we talk to over its stdin/stdout: a `docker exec` attached stream or a local child.
 * The drivers (Python REPL, shell supervisor) only see this interface, so the same code runs in both modes.
 */
export interface ProcessExit {
  /** null when the engine could not say (connection lost) */
  code: number | null;
  /** the process stream ended because the engine or container went away */
  lost: boolean;
}

export interface ProcessChannel {
  write(data: string): void;
  /** complete lines of stdout (the protocol channel) */
  onLine(listener: (line: string) => void): void;
  /** whatever the process writes on stderr (driver crashes, interpreter warnings) */
  onStderr(listener: (text: string) => void): void;
  /** true as soon as the stream closed, before `exited` knows why */
  readonly ended: boolean;
  readonly exited: Promise<ProcessExit>;
  /** end the process for good, with the process group `pid` leads (`pid`: as the driver reported it, inside the container) */
  kill(pid?: number): Promise<void>;
}

/** Splits a byte stream into lines, keeping the unfinished tail for the next chunk. */
export class LineSplitter {
  private tail = '';

  constructor(private readonly emitLine: (line: string) => void) {}

  push(text: string): void {
    const parts = (this.tail + text).split('\n');
    this.tail = parts.pop() ?? '';
    for (const part of parts) this.emitLine(part);
  }
}
