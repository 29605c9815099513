import type { CoreEvent } from '../../../shared/events.js';
import type { CoreError, InvokeResult, ReplyOf, RequestName, RequestOf } from '../../../shared/contract.js';
import type { UiCommand } from '../../../shared/contract/ui-commands.js';

export type ConnectionState = 'connected' | 'reconnecting' | 'unauthorized';

/** The one way the renderer talks to the core, whichever transport carries it. */
export interface ManusClient {
  readonly transport: 'electron' | 'web';
  call<K extends RequestName>(name: K, request: RequestOf<K>): Promise<ReplyOf<K>>;
  onEvent(listener: (event: CoreEvent) => void): () => void;
  onCommand(listener: (command: UiCommand) => void): () => void;
  /** transport health; after a reconnect the caller catches up with getEvents(afterSeq) */
  onConnection(listener: (state: ConnectionState) => void): () => void;
}

/** A failed request, with the code and the fix the core gave. */
export class ClientError extends Error {
  readonly code: string;
  readonly hint?: string;

  constructor(error: CoreError) {
    super(error.message);
    this.name = 'ClientError';
    this.code = error.code;
    this.hint = error.hint;
  }
}

export function unwrap<T>(result: InvokeResult<unknown>): T {
  if (result.ok) return result.value as T;
  throw new ClientError(result.error);
}

/** A small listener set shared by the adapters. */
export class Listeners<T> {
  private readonly listeners = new Set<(value: T) => void>();

  add(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
}
