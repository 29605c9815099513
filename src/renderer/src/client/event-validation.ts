import { CoreEventSchema, type CoreEvent } from '../../../shared/events.js';

/** The event as the contract defines it (unknown fields dropped), or undefined when the data is not one. */
export function validEvent(data: unknown): CoreEvent | undefined {
  const parsed = CoreEventSchema.safeParse(data);
  return parsed.success ? parsed.data : undefined;
}
