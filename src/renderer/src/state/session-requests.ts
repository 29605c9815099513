import type { CoreEvent } from '../../../shared/events.js';
import { DEFAULT_EVENT_WINDOW } from '../../../shared/contract/event-window-size.js';
import type { SessionOutline } from '../../../shared/contract/event-window.js';
import type { ManusClient } from '../client/manus-client.js';

/** What opening a session fetches: its outline and last events, whatever its length (issue 16). */
export interface SessionWindowRequests {
  events: Promise<CoreEvent[]>;
  outline: Promise<SessionOutline>;
}

/** The open session's requests, started by boot.ts before the app is evaluated. */
export interface PrefetchedSession extends SessionWindowRequests {
  sessionId: string;
}

export function requestSessionWindow(client: ManusClient, sessionId: string): SessionWindowRequests {
  return {
    events: client.call('getEventWindow', { sessionId, limit: DEFAULT_EVENT_WINDOW }),
    outline: client.call('getSessionOutline', { sessionId }),
  };
}
