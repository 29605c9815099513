import type { CoreEvent } from '../../src/shared/events.js';

/** The events of one type, typed as such. */
export function ofType<T extends CoreEvent['type']>(events: readonly CoreEvent[], type: T) {
  return events.filter((e): e is Extract<CoreEvent, { type: T }> => e.type === type);
}
