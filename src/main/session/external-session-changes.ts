import type { SessionInfo } from '../../shared/events.js';
import type { SessionStore } from '../store/store-api.js';
import type { SessionService } from './session-service.js';

/** Cheap enough to poll (one pragma); a rename from `manus sessions rename` shows within about a second. */
export const EXTERNAL_CHANGES_POLL_MS = 1_000;

/**
 * Tells a long-lived host's subscribers of sessions another process renamed (e.g. `manus sessions rename` while
 * `serve` runs): SQLite's data_version changes when another connection commits, and only then are the rows read again
 * and compared with what was last published. A session another process made is only noted: the event would be written
 * into that session's own log, which is the other process's to write. Returns the function that stops watching.
 */
export function watchExternalSessionChanges(
  store: SessionStore,
  service: Pick<SessionService, 'emit' | 'subscribe'>,
  pollMs = EXTERNAL_CHANGES_POLL_MS,
): () => void {
  const published = new Map<string, string>(store.listSessions().map((session) => [session.id, session.title]));
  // this process's own creations and renames are known already and not published twice
  const stopListening = service.subscribe((event) => {
    if (event.type === 'session') published.set(event.session.id, event.session.title);
  });
  let lastVersion = store.dataVersion();
  const poll = () => {
    const version = store.dataVersion();
    if (version === lastVersion) return;
    lastVersion = version;
    for (const session of store.listSessions()) publishIfChanged(session);
  };
  const publishIfChanged = (session: SessionInfo) => {
    const title = published.get(session.id);
    if (title === session.title) return;
    published.set(session.id, session.title);
    if (title !== undefined) service.emit({ type: 'session', sessionId: session.id, action: 'updated', session });
  };
  const timer = setInterval(poll, pollMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    stopListening();
  };
}
