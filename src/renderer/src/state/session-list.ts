import type { CoreEvent } from '../../../shared/events.js';
import { isLiveStatus } from '../../../shared/session-vocabulary.js';
import type { SessionSummary } from '../../../shared/contract.js';

/** The sidebar list after one event: session rows upserted (newest first), titles and run state kept current. */
export function upsertSummary(sessions: SessionSummary[], event: CoreEvent): SessionSummary[] {
  if (event.type === 'session') {
    const running = isLiveStatus(event.session.status);
    const others = sessions.filter((summary) => summary.session.id !== event.session.id);
    return [{ session: event.session, running }, ...others].sort((a, b) => b.session.updatedAt - a.session.updatedAt);
  }
  if (event.type === 'title' || event.type === 'done') {
    const position = sessions.findIndex((summary) => summary.session.id === event.sessionId);
    if (position < 0) return sessions;
    const current = sessions[position];
    const next: SessionSummary =
      event.type === 'title'
        ? { ...current, session: { ...current.session, title: event.title } }
        : { running: false, session: { ...current.session, status: event.status } };
    return sessions.map((summary, index) => (index === position ? next : summary));
  }
  return sessions;
}
