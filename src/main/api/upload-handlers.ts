import type { CoreHandlers } from '../../shared/contract.js';
import { UploadError, type UploadStaging } from '../workspace/upload-staging.js';
import { CoreApiError } from './invoke.js';

export type UploadHandlers = Pick<CoreHandlers, 'beginUpload' | 'appendUpload' | 'cancelUpload'>;

/** Runs `work`; a refused upload reaches the UI with its code and fix. */
export function asUploadCoreError<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof UploadError) throw new CoreApiError(error.code, error.message, error.hint);
    throw error;
  }
}

/** Uploads arrive a chunk per request and go straight to disk (UploadStaging); a message or a drop then names them. */
export function createUploadHandlers(options: { uploads: UploadStaging }): UploadHandlers {
  const { uploads } = options;
  return {
    beginUpload: ({ name, size }) => asUploadCoreError(() => ({ uploadId: uploads.begin(name, size) })),
    appendUpload: ({ uploadId, offset, data }) =>
      asUploadCoreError(() => ({ received: uploads.append(uploadId, offset, Buffer.from(data, 'base64')) })),
    cancelUpload: ({ uploadId }) => {
      uploads.discard(uploadId);
      return { ok: true };
    },
  };
}
