import { StrictMode, useEffect } from 'react';
import { App } from '../App.js';
import { ErrorBoundary } from '../components/ErrorBoundary.js';
import { ShortcutProvider } from '../shortcuts/use-shortcut.js';
import type { AppStore } from '../state/app-store.js';
import { APP_LIVE_MARK } from './app-live-mark.js';

/** Marks the page live once mounted: in the app's tree, and in the page that asks for a token. */
export function MarkLive() {
  useEffect(() => {
    if (performance.getEntriesByName(APP_LIVE_MARK).length === 0) performance.mark(APP_LIVE_MARK);
  }, []);
  return null;
}

/**
 * The whole app's tree. The build prerenders it (first-screen-html.tsx) and the page hydrates the same tree
 * (main.tsx): both must render exactly this, from the same starting state.
 */
export function AppRoot({ store }: { store: AppStore }) {
  return (
    <StrictMode>
      <ErrorBoundary>
        <ShortcutProvider>
          <App store={store} />
        </ShortcutProvider>
      </ErrorBoundary>
      <MarkLive />
    </StrictMode>
  );
}
