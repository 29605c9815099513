import { useSyncExternalStore } from 'react';
import type { Options } from 'react-markdown';

type RehypePlugin = NonNullable<Options['rehypePlugins']>[number];

let highlightPlugin: RehypePlugin | undefined;
let requested = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Loads the highlighter (highlight.js and its grammars, its own chunk) once, when a code block names its language. */
export function requestCodeHighlight(): void {
  if (requested) return;
  requested = true;
  import('./highlight-plugin.js').then(
    ({ sharedHighlight }) => {
      highlightPlugin = sharedHighlight;
      for (const listener of listeners) listener();
    },
    // the chunk did not arrive (a server restarted mid-session): code stays plain, the next code block tries again
    () => {
      requested = false;
    },
  );
}

/** Runs once the highlighter has loaded (Markdown drops what it rendered without it). */
export function onCodeHighlightLoaded(listener: () => void): void {
  listeners.add(listener);
}

/** The highlighter's rehype plugin once loaded; until then code shows as plain text. */
export function useCodeHighlight(): RehypePlugin | undefined {
  return useSyncExternalStore(subscribe, () => highlightPlugin);
}
