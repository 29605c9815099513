import { z } from 'zod';
import { MAX_UPLOADS_AT_ONCE, UPLOAD_CHUNK_BYTES } from './upload-limits.js';

/**
 * Uploads travel in chunks: `beginUpload` names the file and its size, `appendUpload` sends it a chunk at a time, in
 * order, and `startTask` / `uploadFiles` name the finished uploads. No request carries more than one chunk, so
 * neither the transport nor the core ever holds a whole file.
 */

export { MAX_UPLOADS_AT_ONCE, UPLOAD_CHUNK_BYTES } from './upload-limits.js';

export const BeginUploadRequestSchema = z.object({
  name: z.string().trim().min(1).max(255),
  size: z.number().int().nonnegative(),
});
export const BeginUploadReplySchema = z.object({ uploadId: z.string() });

export const AppendUploadRequestSchema = z.object({
  uploadId: z.string().min(1),
  /** where the chunk starts: the bytes received so far (chunks arrive in order) */
  offset: z.number().int().nonnegative(),
  /** base64, no data: prefix */
  data: z
    .string()
    .max(Math.ceil(UPLOAD_CHUNK_BYTES / 3) * 4, 'a chunk is larger than 1 MB')
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64'),
});
export const AppendUploadReplySchema = z.object({ received: z.number().int().nonnegative() });

export const UploadRefSchema = z.object({ uploadId: z.string().min(1) });
/** finished uploads, by id, for a message or a drop into the workspace */
export const UploadIdsSchema = z.array(z.string().min(1)).max(MAX_UPLOADS_AT_ONCE, 'at most 20 files at once');
