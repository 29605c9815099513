import type { SessionPart } from '../tool/session-context.js';

/** A session part that can also be closed for good, with the session. */
export interface ClosablePart<T> extends SessionPart<T> {
  close(): Promise<void>;
}

/** A part made by `create` at its first `get` and closed by `close` (errors of a part that never came up are moot). */
export function lazyPart<T>(create: () => Promise<T> | T, close: (value: T) => Promise<void> | void): ClosablePart<T> {
  let current: Promise<T> | undefined;
  const release = async (value: Promise<T> | undefined) => {
    try {
      if (value) await close(await value);
    } catch {
      // a part that never came up or fails to close has nothing left to release
    }
  };
  return {
    get() {
      if (current) return current;
      const made = Promise.resolve().then(create);
      current = made;
      // a failed creation is forgotten so the next call can try again
      made.catch(() => {
        if (current === made) current = undefined;
      });
      return made;
    },
    has: () => current !== undefined,
    async reset() {
      const value = current;
      current = undefined;
      await release(value);
    },
    close() {
      return this.reset();
    },
  };
}
