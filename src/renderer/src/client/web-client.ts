import type { CoreEvent } from '../../../shared/events.js';
import { API_PREFIX, EVENTS_PATH, TOKEN_PARAM } from '../../../shared/contract/web-transport.js';
import type { InvokeResult } from '../../../shared/contract.js';
import { Listeners, unwrap, type ConnectionState, type ManusClient } from './manus-client.js';

const TOKEN_STORAGE_KEY = 'manus.token';
const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 5_000;
const UNAUTHORIZED = 401;

/**
 * The token comes in the URL `manus serve` prints; it is kept in sessionStorage (this tab only) and taken out of
 * the address bar so it is not in history or screenshots.
 */
export function takeToken(location: Location, storage: Storage, history: History): string | undefined {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get(TOKEN_PARAM);
  if (fromUrl) {
    storage.setItem(TOKEN_STORAGE_KEY, fromUrl);
    url.searchParams.delete(TOKEN_PARAM);
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return storage.getItem(TOKEN_STORAGE_KEY) ?? undefined;
}

/**
 * Events from the socket, checked against the contract before anyone sees them. The schemas (zod, a fifth of the
 * first screen's script) load with the first event rather than with the first screen; events wait for them, in order.
 */
class ValidatedEvents {
  private validate: ((data: unknown) => CoreEvent | undefined) | undefined;
  private waiting: unknown[] | undefined;

  constructor(private readonly events: Listeners<CoreEvent>) {}

  deliver(data: unknown): void {
    if (this.validate) return this.emitValid(data);
    if (this.waiting) return void this.waiting.push(data);
    this.waiting = [data];
    import('./event-validation.js').then(
      ({ validEvent }) => {
        this.validate = validEvent;
        for (const waiting of this.waiting ?? []) this.emitValid(waiting);
        this.waiting = undefined;
      },
      (error: unknown) => console.error('Live events cannot be shown until the page is reloaded:', error),
    );
  }

  private emitValid(data: unknown): void {
    const event = this.validate!(data);
    if (event) this.events.emit(event);
  }
}

/** The client over HTTP (requests) and a WebSocket (events), reconnecting with backoff. */
export function createWebClient(origin: string, token: string): ManusClient {
  const events = new Listeners<CoreEvent>();
  const received = new ValidatedEvents(events);
  const connection = new Listeners<ConnectionState>();
  let socket: WebSocket | undefined;
  let retryDelay = RECONNECT_MIN_MS;
  let everConnected = false;

  function connect(): void {
    const url = new URL(EVENTS_PATH, origin.replace(/^http/, 'ws'));
    url.searchParams.set(TOKEN_PARAM, token);
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      retryDelay = RECONNECT_MIN_MS;
      if (everConnected) connection.emit('connected');
      everConnected = true;
    };
    ws.onmessage = (message) => received.deliver(JSON.parse(String(message.data)));
    ws.onclose = () => {
      if (socket !== ws) return;
      connection.emit('reconnecting');
      setTimeout(connect, retryDelay);
      retryDelay = Math.min(retryDelay * 2, RECONNECT_MAX_MS);
    };
  }
  /**
   * The socket opens with the client's first use (a request or a subscription), not when it is made: opening one
   * holds the page's main thread for about 10 ms, which the first screen would otherwise wait for. Opened before
   * that first request, it still sees every event the request's answer does not.
   */
  function connectOnFirstUse(): void {
    if (!socket) connect();
  }

  return {
    transport: 'web',
    call: async (name, request) => {
      connectOnFirstUse();
      let response: Response;
      try {
        response = await fetch(new URL(API_PREFIX + name, origin), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify(request ?? {}),
        });
      } catch {
        throw Object.assign(new Error('The Manus server is not reachable.'), {
          code: 'offline',
          hint: 'Start it again with `manus serve` and reload this page.',
        });
      }
      if (response.status === UNAUTHORIZED) connection.emit('unauthorized');
      return unwrap((await response.json()) as InvokeResult<unknown>);
    },
    onEvent: (listener) => {
      connectOnFirstUse();
      return events.add(listener);
    },
    // menu commands exist only in the desktop app; the web page has its own keyboard shortcuts
    onCommand: () => () => undefined,
    onConnection: (listener) => {
      connectOnFirstUse();
      return connection.add(listener);
    },
  };
}
