import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppStore } from '../../state/app-store.js';
import { formatBytes } from '../../lib/format.js';
import { uploadFile } from './upload-file.js';

/** A file attached to the next message: uploading (sentBytes < size) until it has its upload id. */
export interface Attachment {
  key: string;
  name: string;
  size: number;
  sentBytes: number;
  uploadId?: string;
}

/**
 * Files dropped on or picked in the composer, uploaded to the core as soon as they are attached; the message names
 * them by upload id. A file over the limit is refused with its reason; the others and the typed text stay.
 */
export function useAttachments(store: AppStore, limitBytes: number | undefined) {
  const { t } = useTranslation();
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const uploads = useRef(new Map<string, AbortController>());

  const update = useCallback(
    (key: string, patch: Partial<Attachment>) =>
      setAttachments((current) => current.map((item) => (item.key === key ? { ...item, ...patch } : item))),
    [],
  );

  const attach = useCallback(
    (files: File[]) => {
      for (const file of files) {
        if (limitBytes !== undefined && file.size > limitBytes) {
          store.fail({
            code: 'too_large',
            message: t('uploads.tooLarge', { name: file.name, size: formatBytes(file.size) }),
            hint: t('uploads.limit', { limit: formatBytes(limitBytes) }),
          });
          continue;
        }
        const key = crypto.randomUUID();
        const abort = new AbortController();
        uploads.current.set(key, abort);
        setAttachments((current) => [...current, { key, name: file.name, size: file.size, sentBytes: 0 }]);
        uploadFile(store.client, file, { signal: abort.signal, onProgress: (sentBytes) => update(key, { sentBytes }) })
          .then((uploadId) => update(key, { uploadId, sentBytes: file.size }))
          .catch((error: unknown) => {
            setAttachments((current) => current.filter((item) => item.key !== key));
            if (!abort.signal.aborted) store.fail(error);
          })
          .finally(() => uploads.current.delete(key));
      }
    },
    [store, t, limitBytes, update],
  );

  const remove = useCallback(
    (key: string) => {
      uploads.current.get(key)?.abort();
      setAttachments((current) => {
        const removed = current.find((item) => item.key === key);
        if (removed?.uploadId) void store.client.call('cancelUpload', { uploadId: removed.uploadId }).catch(() => {});
        return current.filter((item) => item.key !== key);
      });
    },
    [store],
  );
  /** after the message that carried them was sent: the core has taken the uploads */
  const clear = useCallback(() => setAttachments([]), []);

  // uploads still running when the window goes are stopped
  useEffect(() => {
    const running = uploads.current;
    return () => running.forEach((abort) => abort.abort());
  }, []);

  return { attachments, attach, remove, clear };
}
