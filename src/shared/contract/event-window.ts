import { z } from 'zod';
import { CoreEventSchema, SessionInfoSchema } from '../events.js';
import { DEFAULT_EVENT_WINDOW, MAX_EVENT_WINDOW } from './event-window-size.js';

/**
 * A session read in windows (issue 16): its outline first, then the events around what is on screen, so opening
 * a session costs the same whatever its length.
 */

export { DEFAULT_EVENT_WINDOW, MAX_EVENT_WINDOW } from './event-window-size.js';

const seq = z.number().int().nonnegative();

export const EventWindowRequestSchema = z
  .object({
    sessionId: z.string().min(1),
    /** the window ends just before this seq (older events); neither bound: the session's last events */
    beforeSeq: seq.optional(),
    /** the window starts just after this seq (newer events) */
    afterSeq: seq.optional(),
    limit: z.number().int().positive().max(MAX_EVENT_WINDOW).default(DEFAULT_EVENT_WINDOW),
  })
  .refine((request) => request.beforeSeq === undefined || request.afterSeq === undefined, {
    message: 'give beforeSeq or afterSeq, not both',
  });
export type EventWindowRequest = z.input<typeof EventWindowRequestSchema>;

/** The events of a window, oldest first. */
export const EventWindowSchema = z.array(CoreEventSchema);

/** What a session view needs before any of its events: the session row, its seq range and its plan. */
export const EventOutlineSchema = z.object({
  session: SessionInfoSchema,
  /** 0 when the session has no events */
  firstSeq: seq,
  lastSeq: seq,
  eventCount: z.number().int().nonnegative(),
  /** the latest `plan` event and the `step` events after it: the plan panel is whole before any window loads */
  planEvents: z.array(CoreEventSchema),
});
export type EventOutline = z.infer<typeof EventOutlineSchema>;

export const SessionOutlineSchema = EventOutlineSchema.extend({ running: z.boolean() });
export type SessionOutline = z.infer<typeof SessionOutlineSchema>;
