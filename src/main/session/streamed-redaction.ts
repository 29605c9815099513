import type { CoreEventInput } from '../../shared/events.js';
import type { SecretRedactor } from '../store/redact.js';

/** a shorter possible start of a secret is let through: 3 characters give nothing away, and text flows on */
const MIN_HELD_CHARS = 4;
/** no key is this long: a longer run of key-like characters (a base64 blob) flows on, redacted as it is */
const MAX_HELD_CHARS = 256;

/**
 * A streamed reply comes in chunks, and a key the model repeats may be cut between two of them, where redacting
 * each chunk alone misses it. The end of a chunk that could begin a secret is held back and sent with the next
 * chunk, or just before the whole message.
 */
export class StreamedRedaction {
  /** messageId → text held back, and whose session it is */
  private readonly held = new Map<string, { sessionId: string; text: string }>();

  constructor(private readonly redactor: SecretRedactor) {}

  /** The events to emit for `input` (a chunk may shrink, and the whole message may be preceded by the held rest). */
  events(input: CoreEventInput): CoreEventInput[] {
    if (input.type === 'done') this.forgetSession(input.sessionId);
    if (input.type !== 'message') return [input];
    const held = this.held.get(input.messageId)?.text ?? '';
    this.held.delete(input.messageId);
    if (!input.delta) return held ? [{ ...input, text: held, delta: true }, input] : [input];
    const text = held + input.text;
    const tail = this.redactor.unfinishedTailLength(text);
    if (tail < MIN_HELD_CHARS || tail > MAX_HELD_CHARS) return [{ ...input, text }];
    this.held.set(input.messageId, { sessionId: input.sessionId, text: text.slice(text.length - tail) });
    return [{ ...input, text: text.slice(0, text.length - tail) }];
  }

  /** a reply cut off (a failed or cancelled stream) never gets its whole message: its held end goes with the turn */
  private forgetSession(sessionId: string): void {
    for (const [messageId, held] of this.held) if (held.sessionId === sessionId) this.held.delete(messageId);
  }
}
