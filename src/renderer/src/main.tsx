// first: makes the client and requests the open session's events before the rest of the app is evaluated
import { clientChoice, prefetchedSession } from './boot.js';
import './styles/tokens.css';
import './styles/base.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { initI18n } from './i18n/i18n.js';
import { AppStore } from './state/app-store.js';
import { AppRoot, MarkLive } from './shell/AppRoot.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { MissingToken } from './components/MissingToken.js';
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
const { language } = initI18n();
const container = document.getElementById('root')!;
if ('client' in clientChoice && container.dataset.prerendered === language) {
  // the build's first screen in this language is on the page (first-screen.js): the app takes it over, keeping
  // what was typed into it and where the focus is
  hydrateRoot(container, <AppRoot store={new AppStore(clientChoice.client, prefetchedSession)} />);
} else {
  // no prerendered page in this language (a dev server), or no token: rendered here, replacing what #root holds
  createRoot(container).render(
    'client' in clientChoice ? (
      <AppRoot store={new AppStore(clientChoice.client, prefetchedSession)} />
    ) : (
      <StrictMode>
        <ErrorBoundary>
          <MissingToken />
        </ErrorBoundary>
        <MarkLive />
      </StrictMode>
    ),
  );
}
