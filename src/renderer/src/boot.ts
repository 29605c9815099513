import { pickClient } from './client/pick-client.js';
import { routedSessionId } from './state/route.js';
import { requestSessionWindow } from './state/session-requests.js';

/**
 * Imported first by main.tsx: the client is made and the open session's outline and last events are requested before
 * the rest of the app is evaluated, so a reloaded page shows its session sooner.
 */
performance.mark('manus:boot');
export const clientChoice = pickClient();
const sessionId = routedSessionId(window.location.hash);
export const prefetchedSession =
  sessionId && 'client' in clientChoice
    ? { sessionId, ...requestSessionWindow(clientChoice.client, sessionId) }
    : undefined;
// a failed prefetch is reported when the store reads it, not as an unhandled rejection here
prefetchedSession?.events.catch(() => undefined);
prefetchedSession?.outline.catch(() => undefined);
