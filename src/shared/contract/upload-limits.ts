/** How uploads are cut up. No zod here: the renderer's first screen sends files without the schemas. */

/** the bytes of one chunk; each request carries at most this (as base64) */
export const UPLOAD_CHUNK_BYTES = 1024 * 1024;
/** files one message or drop may carry */
export const MAX_UPLOADS_AT_ONCE = 20;
