/** How many events a window holds. No zod here: the renderer's first screen requests a window without the schemas. */

/** what the renderer asks for when it opens a session, and pages by */
export const DEFAULT_EVENT_WINDOW = 500;
/** one reply stays a few MB at most, whatever the caller asks */
export const MAX_EVENT_WINDOW = 5000;
