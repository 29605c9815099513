import type { SessionPart } from '../tool/session-context.js';

/** A session part that can also be made ahead of its first use, and closed for good with the session. */
export interface ClosablePart<T> extends SessionPart<T> {
  close(): Promise<void>;
  /** makes the part ahead of its first `get` (a failed one is forgotten: that `get` tries again and meets the error) */
  warm(): Promise<T>;
  /** closes the part when `warm` made it and no `get` came since: what nobody used costs nothing after the turn */
  closeIfUnused(): Promise<void>;
}

/** A part made by `create` at its first `get` and closed by `close` (errors of a part that never came up are moot). */
export function lazyPart<T>(create: () => Promise<T> | T, close: (value: T) => Promise<void> | void): ClosablePart<T> {
  let current: Promise<T> | undefined;
  /** the current part was made by `warm` and no `get` asked for it yet */
  let unused = false;
  const release = async (value: Promise<T> | undefined) => {
    try {
      if (value) await close(await value);
    } catch {
      // a part that never came up or fails to close has nothing left to release
    }
  };
  const make = (): Promise<T> => {
    if (current) return current;
    const made = Promise.resolve().then(create);
    current = made;
    // a failed creation is forgotten so the next call can try again
    made.catch(() => {
      if (current === made) current = undefined;
    });
    return made;
  };
  return {
    get() {
      unused = false;
      return make();
    },
    warm() {
      if (!current) unused = true;
      return make();
    },
    has: () => current !== undefined,
    async reset() {
      const value = current;
      current = undefined;
      unused = false;
      await release(value);
    },
    async closeIfUnused() {
      if (unused) await this.reset();
    },
    close() {
      return this.reset();
    },
  };
}
