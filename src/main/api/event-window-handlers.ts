import type { CoreHandlers } from '../../shared/contract.js';
import type { SessionStore } from '../store/store-api.js';
import { CoreApiError } from './invoke.js';

export interface EventWindowDeps {
  store: Pick<SessionStore, 'listEvents' | 'listEventsBefore' | 'eventOutline'>;
  isRunning: (sessionId: string) => boolean;
}

/** A session read in windows (issue 16): its outline, then bounded runs of its events. */
export function createEventWindowHandlers({
  store,
  isRunning,
}: EventWindowDeps): Pick<CoreHandlers, 'getEventWindow' | 'getSessionOutline'> {
  return {
    getEventWindow: ({ sessionId, beforeSeq, afterSeq, limit }) =>
      afterSeq === undefined
        ? store.listEventsBefore(sessionId, { beforeSeq, limit })
        : store.listEvents(sessionId, { afterSeq, limit }),
    getSessionOutline: ({ sessionId }) => {
      const outline = store.eventOutline(sessionId);
      if (!outline) throw new CoreApiError('not_found', `No session ${sessionId}.`);
      return { ...outline, running: isRunning(sessionId) };
    },
  };
}
