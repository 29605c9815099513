import type { CoreEvent, CoreEventInput } from '../../shared/events.js';
import type { SecretRedactor } from '../store/redact.js';
import type { SessionStore } from '../store/store-api.js';
import { StreamedRedaction } from './streamed-redaction.js';

export type EventListener = (event: CoreEvent) => void;

/**
 * The one way events leave the core: each is stamped, cleared of known secrets, appended to the store,
 * and only then handed to subscribers, so whatever anyone saw can be reviewed and replayed.
 */
export class EventBus {
  private readonly listeners = new Set<{ listener: EventListener; sessionId?: string }>();
  private readonly streamed: StreamedRedaction;

  constructor(
    private readonly store: SessionStore,
    private readonly redactor: SecretRedactor,
  ) {
    this.streamed = new StreamedRedaction(redactor);
  }

  /** Returns the stored event (the last one, when a held-back chunk end goes out just before a whole message). */
  emit(input: CoreEventInput): CoreEvent {
    let stored: CoreEvent | undefined;
    for (const event of this.streamed.events(input)) stored = this.publish(event);
    return stored!;
  }

  subscribe(listener: EventListener, sessionId?: string): () => void {
    const entry = { listener, sessionId };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  private publish(input: CoreEventInput): CoreEvent {
    // a provider error or a tool output echoing an API key must reach neither the database nor a screen
    const stored = this.store.appendEvent(this.redactor.deep({ ...input, ts: Date.now() }));
    for (const entry of this.listeners) {
      if (entry.sessionId && entry.sessionId !== stored.sessionId) continue;
      try {
        entry.listener(stored);
      } catch {
        // a failing subscriber (a closed socket, a broken printer) must not break the run
      }
    }
    return stored;
  }
}
