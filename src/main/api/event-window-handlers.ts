import type { CoreHandlers } from '../../shared/contract.js';
import type { SessionStore } from '../store/store-api.js';
import { CoreApiError } from './invoke.js';

export interface EventWindowDeps {
  store: Pick<SessionStore, 'listEvents' | 'listEventsBefore' | 'eventOutline'>;
  isRunning: (sessionId: string) => boolean;
  /** marks the session interrupted when it is stored as running but its process died */
  settleDeadRun: (sessionId: string) => void;
}

/** A session read in windows (issue 16): its outline, then bounded runs of its events. */
export function createEventWindowHandlers({
  store,
  isRunning,
  settleDeadRun,
}: EventWindowDeps): Pick<CoreHandlers, 'getEventWindow' | 'getSessionOutline'> {
  return {
    getEventWindow: ({ sessionId, beforeSeq, afterSeq, limit }) => {
      // opening a session (its last events) settles a dead run first, so the window ends with it interrupted
      if (beforeSeq === undefined && afterSeq === undefined) settleDeadRun(sessionId);
      return afterSeq === undefined
        ? store.listEventsBefore(sessionId, { beforeSeq, limit })
        : store.listEvents(sessionId, { afterSeq, limit });
    },
    getSessionOutline: ({ sessionId }) => {
      settleDeadRun(sessionId);
      const outline = store.eventOutline(sessionId);
      if (!outline) throw new CoreApiError('not_found', `No session ${sessionId}.`);
      return { ...outline, running: isRunning(sessionId) };
    },
  };
}
