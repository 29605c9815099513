import { useEffect, useState } from 'react';

const TICK_MS = 1000;

/** Whole seconds left until `at` (ms since epoch), counted down once a second while there are any. */
export function useSecondsUntil(at: number): number {
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((at - now) / 1000));
  useEffect(() => {
    if (left === 0) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(TICK_MS, at - now));
    return () => clearTimeout(timer);
  }, [at, left, now]);
  return left;
}
