import { useSyncExternalStore } from 'react';
import type { CoreEvent } from '../../../shared/events.js';
import { isLiveStatus, type SessionMode } from '../../../shared/session-vocabulary.js';
import type { AppInfo, CoreError, SessionSummary } from '../../../shared/contract.js';
import { DEFAULT_EVENT_WINDOW } from '../../../shared/contract/event-window-size.js';
import type { UiCommand } from '../../../shared/contract/ui-commands.js';
import { ClientError, type ConnectionState, type ManusClient } from '../client/manus-client.js';
import { applyEvents, type SessionView } from './session-view.js';
import { hasOlderEvents, prependOlderEvents, sessionViewFromWindow } from './session-window.js';
import { requestSessionWindow, type PrefetchedSession } from './session-requests.js';
import { upsertSummary } from './session-list.js';
import { routedSessionId, sessionRoute } from './route.js';

export interface AppState {
  connection: ConnectionState;
  appInfo?: AppInfo;
  sessions: SessionSummary[];
  /** the session list has come from the core once: until then an empty list means "not known yet", not "none" */
  sessionsListed: boolean;
  activeId?: string;
  views: Record<string, SessionView>;
  /** a session being fetched */
  loadingId?: string;
  /** the last request that failed, shown as a banner until dismissed */
  failure?: CoreError;
  /** auto shows the plan when there is one, else the browser when it was used */
  sidePanel: 'auto' | 'plan' | 'browser' | 'files' | 'none';
  /** a request from the menu or a shortcut the components act on (focus, search) */
  focusRequest?: { command: UiCommand; at: number };
}

export interface SendOptions {
  task: string;
  mode: SessionMode;
  model?: string;
  /** flows: the agents the steps may run on, and how many independent steps run at once */
  agents?: string[];
  parallel?: number;
  /** upload ids of the files attached to the message */
  uploads?: string[];
  /** a new session's folder, checked by the core; its own new folder when unset */
  workspace?: string;
}

const FLUSH_FALLBACK_MS = 50;

function toCoreError(error: unknown): CoreError {
  if (error instanceof ClientError) return { code: error.code, message: error.message, hint: error.hint };
  const coded = error as { code?: unknown; hint?: unknown; message?: unknown };
  return {
    code: typeof coded?.code === 'string' ? coded.code : 'internal',
    message: typeof coded?.message === 'string' ? coded.message : String(error),
    hint: typeof coded?.hint === 'string' ? coded.hint : undefined,
  };
}

/** The renderer's state: sessions, the open session's view, connection; fed by the client's events. */
export class AppStore {
  private state: AppState = {
    connection: 'connected',
    sessions: [],
    sessionsListed: false,
    views: {},
    sidePanel: 'auto',
  };
  private readonly listeners = new Set<() => void>();
  private queued: CoreEvent[] = [];
  private flushScheduled = false;
  /** events of sessions not loaded yet, applied once their stored events arrive */
  private readonly early = new Map<string, CoreEvent[]>();
  /** sessions whose older events are being fetched */
  private readonly loadingOlder = new Set<string>();

  constructor(
    readonly client: ManusClient,
    /** the open session's fetch, started before the app was evaluated (boot.ts) */
    private prefetched?: PrefetchedSession,
  ) {}

  getState = (): AppState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<AppState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  start(): () => void {
    const stops = [
      this.client.onEvent((event) => this.enqueue(event)),
      this.client.onCommand((command) => this.runCommand(command)),
      this.client.onConnection((connection) => {
        // a refused token stays refused: the event stream's reconnect attempts do not hide it
        if (this.state.connection === 'unauthorized' && connection !== 'connected') return;
        this.set({ connection });
        if (connection === 'connected') void this.catchUp();
      }),
    ];
    const onHash = () => this.followRoute();
    window.addEventListener('hashchange', onHash);
    // the open session loads alongside the app info and the list: a reload shows it as soon as possible
    void this.refresh();
    this.followRoute();
    return () => {
      stops.forEach((stop) => stop());
      window.removeEventListener('hashchange', onHash);
    };
  }

  async refresh(): Promise<void> {
    try {
      const [appInfo, sessions] = await Promise.all([
        this.client.call('appInfo', {}),
        this.client.call('listSessions', { limit: 200 }),
      ]);
      this.set({ appInfo, sessions, sessionsListed: true });
    } catch (error) {
      this.fail(error);
    }
  }

  private followRoute(): void {
    const id = routedSessionId(window.location.hash);
    if (id === this.state.activeId) return;
    if (id) void this.openSession(id);
    else this.set({ activeId: undefined });
  }

  /** Loads a session's outline and last events, then keeps it live: a reload re-attaches here. */
  async openSession(sessionId: string): Promise<void> {
    if (window.location.hash !== sessionRoute(sessionId)) {
      window.history.replaceState(window.history.state, '', sessionRoute(sessionId));
    }
    this.set({ activeId: sessionId, sidePanel: 'auto' });
    const loaded = this.state.views[sessionId];
    if (loaded) {
      // a run shown running may have died in another process since: asking settles it (its status event follows)
      if (loaded.status === 'running') void this.client.call('getSession', { sessionId }).catch(() => undefined);
      return;
    }
    this.set({ loadingId: sessionId });
    try {
      const prefetched = this.prefetched?.sessionId === sessionId ? this.prefetched : undefined;
      this.prefetched = undefined;
      const requests = prefetched ?? requestSessionWindow(this.client, sessionId);
      const [events, outline] = await Promise.all([requests.events, requests.outline]);
      const early = this.early.get(sessionId) ?? [];
      this.early.delete(sessionId);
      const view = applyEvents(sessionViewFromWindow(sessionId, events, outline), early);
      this.set({ views: { ...this.state.views, [sessionId]: view }, loadingId: undefined });
    } catch (error) {
      this.set({ loadingId: undefined });
      this.fail(error);
    }
  }

  /** The page of events before the ones a session view holds, joined in front; one fetch at a time per session. */
  async loadOlder(sessionId: string): Promise<void> {
    const view = this.state.views[sessionId];
    if (!view || !hasOlderEvents(view) || this.loadingOlder.has(sessionId)) return;
    this.loadingOlder.add(sessionId);
    try {
      const older = await this.client.call('getEventWindow', {
        sessionId,
        beforeSeq: view.firstSeq,
        limit: DEFAULT_EVENT_WINDOW,
      });
      // live events may have changed the view while the page was on its way
      const current = this.state.views[sessionId];
      if (current) this.set({ views: { ...this.state.views, [sessionId]: prependOlderEvents(current, older) } });
    } catch (error) {
      this.fail(error);
    } finally {
      this.loadingOlder.delete(sessionId);
    }
  }

  newSession(): void {
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    this.set({ activeId: undefined, sidePanel: 'auto', focusRequest: { command: 'focusComposer', at: Date.now() } });
  }

  /** A new task, or a follow-up message when a session is open. */
  async send(options: SendOptions): Promise<boolean> {
    const followUp = this.state.activeId;
    try {
      const { sessionId } = await this.client.call('startTask', {
        task: options.task,
        mode: options.mode,
        model: options.model,
        ...(options.agents ? { agents: options.agents } : {}),
        ...(options.parallel ? { parallel: options.parallel } : {}),
        ...(options.uploads?.length ? { uploads: options.uploads } : {}),
        ...(options.workspace && !followUp ? { workspace: options.workspace } : {}),
        ...(followUp ? { sessionId: followUp } : {}),
      });
      // the new session's first events may already be here: openSession fetches the stored ones and merges them
      if (sessionId !== followUp) await this.openSession(sessionId);
      void this.refreshSessions();
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  async stop(): Promise<void> {
    const sessionId = this.state.activeId;
    if (!sessionId) return;
    try {
      await this.client.call('cancel', { sessionId });
    } catch (error) {
      this.fail(error);
    }
  }

  async resume(): Promise<void> {
    const sessionId = this.state.activeId;
    if (!sessionId) return;
    try {
      await this.client.call('resume', { sessionId });
    } catch (error) {
      this.fail(error);
    }
  }

  /** The open session's last message sent again, in its mode, with its attachments. */
  async retry(): Promise<void> {
    const sessionId = this.state.activeId;
    if (!sessionId) return;
    try {
      await this.client.call('retryTurn', { sessionId });
    } catch (error) {
      this.fail(error);
    }
  }

  /** Answers a question of the open session's run; false when it did not go through (the banner says why). */
  async answer(askId: string, answer: string): Promise<boolean> {
    const sessionId = this.state.activeId;
    if (!sessionId) return false;
    try {
      await this.client.call('answer', { sessionId, askId, answer });
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  async refreshSessions(): Promise<void> {
    try {
      const listed = await this.client.call('listSessions', { limit: 200 });
      // a list computed before a run's last events arrived must not undo them: open sessions keep their live state
      this.set({
        sessionsListed: true,
        sessions: listed.map((summary) => {
          const status = this.state.views[summary.session.id]?.status;
          if (!status || isLiveStatus(status)) return summary;
          return { running: false, session: { ...summary.session, status } };
        }),
      });
    } catch (error) {
      this.fail(error);
    }
  }

  showPanel(sidePanel: AppState['sidePanel']): void {
    this.set({ sidePanel });
  }

  dismissFailure(): void {
    this.set({ failure: undefined });
  }

  fail(error: unknown): void {
    this.set({ failure: toCoreError(error) });
  }

  runCommand(command: UiCommand): void {
    if (command === 'newSession') this.newSession();
    else if (command === 'stop') void this.stop();
    else if (command === 'togglePlan') this.set({ sidePanel: this.state.sidePanel === 'plan' ? 'none' : 'plan' });
    else this.set({ focusRequest: { command, at: Date.now() } });
  }

  /** After the event stream dropped: fetch what was missed for every loaded session. */
  private async catchUp(): Promise<void> {
    await this.refreshSessions();
    for (const view of Object.values(this.state.views)) {
      try {
        const missed = await this.client.call('getEvents', { sessionId: view.sessionId, afterSeq: view.lastSeq });
        this.enqueueAll(missed);
      } catch (error) {
        this.fail(error);
      }
    }
  }

  private enqueue(event: CoreEvent): void {
    this.queued.push(event);
    this.scheduleFlush();
  }

  private enqueueAll(events: CoreEvent[]): void {
    this.queued.push(...events);
    this.scheduleFlush();
  }

  /** Events are applied once per frame: a fast stream of deltas costs one render per frame, not one per chunk. */
  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const flush = () => {
      if (!this.flushScheduled) return;
      this.flushScheduled = false;
      this.flush();
    };
    requestAnimationFrame(flush);
    // hidden tabs get no animation frames; the timer keeps them current
    setTimeout(flush, FLUSH_FALLBACK_MS);
  }

  private flush(): void {
    const batch = this.queued;
    this.queued = [];
    const bySession = new Map<string, CoreEvent[]>();
    let sessions = this.state.sessions;
    for (const event of batch) {
      const list = bySession.get(event.sessionId) ?? [];
      list.push(event);
      bySession.set(event.sessionId, list);
      sessions = upsertSummary(sessions, event);
    }
    let views = this.state.views;
    for (const [sessionId, events] of bySession) {
      const view = views[sessionId];
      if (view) {
        const next = applyEvents(view, events);
        if (next !== view) views = { ...views, [sessionId]: next };
      } else {
        this.early.set(sessionId, [...(this.early.get(sessionId) ?? []), ...events]);
      }
    }
    if (views !== this.state.views || sessions !== this.state.sessions) this.set({ views, sessions });
  }
}

export function useAppState<T>(store: AppStore, select: (state: AppState) => T): T {
  const selected = () => select(store.getState());
  // the same state serves the build's prerender and the page's hydration of it
  return useSyncExternalStore(store.subscribe, selected, selected);
}
