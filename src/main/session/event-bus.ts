import type { CoreEvent, CoreEventInput } from '../../shared/events.js';
import type { SecretRedactor } from '../store/redact.js';
import type { SessionStore } from '../store/store-api.js';
import { StreamedRedaction } from './streamed-redaction.js';

export type EventListener = (event: CoreEvent) => void;

/** A longer synchronous burst (a tool printing thousands of lines at once) is committed and shown in slices of this. */
export const MAX_EVENTS_PER_COMMIT = 512;

/**
 * Streamed pieces (reply deltas, lines of tool output) arrive one network or pipe chunk per tick; they open a window
 * of this long, and what a run emits meanwhile (the rest of the stream, the whole reply, tool calls, usage) joins
 * it, so a working run pays one commit per window instead of one per event. Well under a frame: nobody sees the
 * difference. Without a window open, an event commits everything queued at the end of its tick.
 */
export const STREAM_COMMIT_WINDOW_MS = 4;

/** a chunk of a stream: it may wait for company before its commit */
function isStreamedPiece(event: CoreEventInput): boolean {
  return (event.type === 'message' && event.delta === true) || (event.type === 'tool' && event.progress !== undefined);
}

/**
 * Events someone waits on (a run's end, a question for the person, a session's status, an error): committed and
 * shown at the end of their tick even while a window is open, with everything queued before them, before an emitter
 * awaiting anything resumes (the others may be written by the store's writer thread, and shown when it is done).
 */
function isAwaited(event: CoreEventInput): boolean {
  return event.type === 'done' || event.type === 'ask' || event.type === 'session' || event.type === 'error';
}

/**
 * The one way events leave the core: each is stamped, cleared of known secrets, queued in the store, and only
 * after the transaction holding it committed handed to subscribers, so whatever anyone saw can be reviewed and
 * replayed. Events emitted in the same tick share one transaction (group commit), and subscribers see them in the
 * order they were emitted, across sessions too. While a stream is flowing, events wait a few milliseconds for the
 * rest of it (STREAM_COMMIT_WINDOW_MS), except those someone waits on.
 */
export class EventBus {
  private readonly listeners = new Set<{ listener: EventListener; sessionId?: string }>();
  private readonly streamed: StreamedRedaction;
  /** events queued since the last commit this bus made */
  private queuedCount = 0;
  /** committed (by this bus or by a read of the store), not yet shown, in emit order */
  private stored: CoreEvent[] = [];
  private commitScheduled = false;
  /** an event someone waits on is queued: the scheduled commit is made before the tick ends */
  private awaitedQueued = false;
  private windowTimer: NodeJS.Timeout | undefined;
  private publishing = false;
  private publishScheduled = false;
  private readonly noteStored = (event: CoreEvent) => void this.stored.push(event);
  /** inside this bus's call to the store: a batch it says is committed was written there and then */
  private committingHere = false;
  /**
   * A batch committed: shown at once when the store wrote it within this bus's call, else (the writer thread's
   * answer) in a microtask, never inside whatever store call took the answer.
   */
  private readonly showCommitted = () => {
    if (this.committingHere) {
      this.publishStored();
      return;
    }
    if (this.publishScheduled) return;
    this.publishScheduled = true;
    queueMicrotask(() => {
      this.publishScheduled = false;
      this.publishStored();
    });
  };
  private readonly reportFailed = (error: Error) => {
    // nobody awaits this commit: the events that failed were never shown, and the failure is reported
    process.emitWarning(`Events were not stored: ${error.message}`);
  };

  constructor(
    private readonly store: SessionStore,
    private readonly redactor: SecretRedactor,
  ) {
    this.streamed = new StreamedRedaction(redactor);
  }

  /**
   * Returns the event as queued (the last one, when a held-back chunk end goes out just before a whole message):
   * subscribers get it once it is committed, at the end of the current tick or when the store's writer thread says so.
   */
  emit(input: CoreEventInput): CoreEvent {
    let queued: CoreEvent | undefined;
    for (const event of this.streamed.events(input)) queued = this.queue(event);
    if (this.queuedCount >= MAX_EVENTS_PER_COMMIT) {
      if (this.awaitedQueued) this.flush();
      else this.commitInBackground();
    }
    return queued!;
  }

  subscribe(listener: EventListener, sessionId?: string): () => void {
    const entry = { listener, sessionId };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  /** Commits what is queued and shows every committed event to the subscribers; throws when the commit fails. */
  private flush(): void {
    this.awaitedQueued = false;
    try {
      this.store.commitQueued();
    } finally {
      this.queuedCount = 0;
      this.publishStored();
    }
  }

  /** Hands what is queued to the store's background writer; shown once committed. */
  private commitInBackground(): void {
    this.queuedCount = 0;
    this.committingHere = true;
    try {
      this.store.commitQueuedInBackground(this.showCommitted, this.reportFailed);
    } finally {
      this.committingHere = false;
    }
  }

  private queue(input: CoreEventInput): CoreEvent {
    // a provider error or a tool output echoing an API key must reach neither the database nor a screen
    const queued = this.store.queueEvent(this.redactor.deep({ ...input, ts: Date.now() }), this.noteStored);
    this.queuedCount += 1;
    if (isAwaited(input)) this.awaitedQueued = true;
    if (isStreamedPiece(input)) {
      this.windowTimer ??= setTimeout(() => this.flushScheduled(), STREAM_COMMIT_WINDOW_MS);
    } else if (this.windowTimer && !isAwaited(input)) {
      // joins the open window
    } else if (!this.commitScheduled) {
      this.commitScheduled = true;
      // a microtask: an emitter that awaits anything resumes after its events were committed (or handed to the
      // writer thread) and, those someone waits on, shown
      queueMicrotask(() => this.flushScheduled());
    }
    return queued;
  }

  private flushScheduled(): void {
    this.commitScheduled = false;
    clearTimeout(this.windowTimer);
    this.windowTimer = undefined;
    if (!this.awaitedQueued) {
      this.commitInBackground();
      return;
    }
    try {
      this.flush();
    } catch (error) {
      this.reportFailed(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private publishStored(): void {
    // a subscriber that emits enough to commit again leaves the showing to this loop, so the order holds
    if (this.publishing) return;
    this.publishing = true;
    try {
      while (this.stored.length > 0) {
        const batch = this.stored;
        this.stored = [];
        for (const event of batch) this.publish(event);
      }
    } finally {
      this.publishing = false;
    }
  }

  private publish(event: CoreEvent): void {
    for (const entry of this.listeners) {
      if (entry.sessionId && entry.sessionId !== event.sessionId) continue;
      try {
        entry.listener(event);
      } catch {
        // a failing subscriber (a closed socket, a broken printer) must not break the run
      }
    }
  }
}
