// The part of tar-stream 2.x (no published types for it here) that the workspace sync uses.
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'block-device' | 'fifo' | 'pax-header';
    uid?: number;
    gid?: number;
  }

  export interface Pack extends Readable {
    entry(headers: Headers, callback?: (error?: Error) => void): Writable;
    entry(headers: Headers, buffer: Buffer | string, callback?: (error?: Error) => void): Writable;
    finalize(): void;
  }

  export interface Extract extends Writable {
    on(event: 'entry', listener: (headers: Headers, stream: Readable, next: () => void) => void): this;
    on(event: 'finish', listener: () => void): this;
    on(event: 'error', listener: (error: Error) => void): this;
  }

  export function pack(): Pack;
  export function extract(): Extract;
}
