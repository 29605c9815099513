// first: makes the client and requests the open session's events before the rest of the app is evaluated
import { clientChoice, prefetchedSession } from './boot.js';
import './styles/tokens.css';
import './styles/base.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n/i18n.js';
import { AppStore } from './state/app-store.js';
import { App } from './App.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { MissingToken } from './components/MissingToken.js';
import { ShortcutProvider } from './shortcuts/use-shortcut.js';
import { loadSessionPane } from './shell/load-session-pane.js';

/** Safari has no requestIdleCallback: a short wait after the first screen stands in for it there */
const SAFARI_IDLE_MS = 300;
const whenIdle =
  typeof requestIdleCallback === 'function'
    ? requestIdleCallback
    : (run: () => void) => setTimeout(run, SAFARI_IDLE_MS);

// a page opened on a session needs its timeline's code at once (fetched beside its events); otherwise when idle
if (prefetchedSession) void loadSessionPane();
else whenIdle(() => void loadSessionPane());
initI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary>
      {'client' in clientChoice ? (
        <ShortcutProvider>
          <App store={new AppStore(clientChoice.client, prefetchedSession)} />
        </ShortcutProvider>
      ) : (
        <MissingToken />
      )}
    </ErrorBoundary>
  </StrictMode>,
);
