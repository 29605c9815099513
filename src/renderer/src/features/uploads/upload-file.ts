import { UPLOAD_CHUNK_BYTES } from '../../../../shared/contract/upload-limits.js';
import type { ManusClient } from '../../client/manus-client.js';

/** bytes per String.fromCharCode call: larger spreads overflow the call stack */
const CHARS_PER_CALL = 0x8000;

function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let index = 0; index < bytes.length; index += CHARS_PER_CALL) {
    binary += String.fromCharCode(...bytes.subarray(index, index + CHARS_PER_CALL));
  }
  return btoa(binary);
}

/**
 * Sends a file to the core a chunk at a time, read from disk as it goes (a 1 GB file never sits in memory here or
 * there); returns the upload's id for the message or drop that carries it. An abort drops what was sent.
 */
export async function uploadFile(
  client: ManusClient,
  file: File,
  options: { onProgress?: (sentBytes: number) => void; signal?: AbortSignal } = {},
): Promise<string> {
  const { uploadId } = await client.call('beginUpload', { name: file.name, size: file.size });
  try {
    for (let offset = 0; offset < file.size; offset += UPLOAD_CHUNK_BYTES) {
      options.signal?.throwIfAborted();
      const chunk = new Uint8Array(await file.slice(offset, offset + UPLOAD_CHUNK_BYTES).arrayBuffer());
      const { received } = await client.call('appendUpload', { uploadId, offset, data: bytesToBase64(chunk) });
      options.onProgress?.(received);
    }
    return uploadId;
  } catch (error) {
    await client.call('cancelUpload', { uploadId }).catch(() => undefined);
    throw error;
  }
}
