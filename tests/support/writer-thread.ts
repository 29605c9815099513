import type { Store } from '../../src/main/store/store.js';
import { waitFor } from './wait-for.js';

/**
 * Starts the store's event writer thread (its first background commit does) and resolves once it writes, i.e. has
 * opened the database: until then the store commits on its own connection. For tests, fixtures and benches that
 * want every batch to go to the thread.
 */
export async function writerThreadStarted(store: Store, timeoutMs = 30_000): Promise<void> {
  store.commitQueuedInBackground(
    () => undefined,
    (error) => {
      throw error;
    },
  );
  await waitFor(() => store.writesEventsInBackground, timeoutMs, 'the event writer thread to open the database', 5);
}
