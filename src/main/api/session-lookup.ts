import type { SessionInfo } from '../../shared/events.js';
import type { SessionStore } from '../store/store-api.js';
import { CoreApiError } from './invoke.js';

/** The stored session a request names, or the `not_found` error the UI shows. */
export function requireSession(store: SessionStore, sessionId: string): SessionInfo {
  const session = store.getSession(sessionId);
  if (!session) throw new CoreApiError('not_found', `No session ${sessionId}.`);
  return session;
}
