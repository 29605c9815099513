import { Transform } from 'node:stream';

/** a line longer than this is redacted and passed on in pieces, so a process cannot grow the buffer without end */
const MAX_BUFFERED_CHARS = 64 * 1024;

/**
 * Text passed through `redact` a whole line at a time: a secret split across two chunks of a child's
 * stderr is still seen whole.
 */
export function redactingLineStream(redact: (text: string) => string): Transform {
  let pending = '';
  return new Transform({
    decodeStrings: false,
    transform(chunk: Buffer | string, _encoding, done) {
      pending += chunk.toString();
      const lastNewline = pending.lastIndexOf('\n');
      if (lastNewline >= 0) {
        done(null, redact(pending.slice(0, lastNewline + 1)));
        pending = pending.slice(lastNewline + 1);
        return;
      }
      if (pending.length > MAX_BUFFERED_CHARS) {
        done(null, redact(pending));
        pending = '';
        return;
      }
      done();
    },
    flush(done) {
      done(null, pending === '' ? undefined : redact(pending));
    },
  });
}
