import type { FakeReply, Script } from './types.js';

/** A script answering with the given replies in order; the last one repeats. */
export function sequence(...replies: FakeReply[]): Script {
  if (replies.length === 0) throw new Error('sequence() needs at least one reply');
  let next = 0;
  return () => replies[Math.min(next++, replies.length - 1)];
}
