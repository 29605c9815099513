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
  /** each attachment's upload id once uploaded; undefined when its upload failed or was stopped */
  const finished = useRef(new Map<string, Promise<string | undefined>>());
  /** attachments taken off by the person: a message waiting for its uploads does not go without them */
  const removed = useRef(new Set<string>());
  /** messages waiting for their uploads, told at once when an attachment is taken off */
  const onRemoved = useRef(new Set<() => void>());

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
        const upload = uploadFile(store.client, file, {
          signal: abort.signal,
          onProgress: (sentBytes) => update(key, { sentBytes }),
        })
          .then((uploadId) => {
            update(key, { uploadId, sentBytes: file.size });
            return uploadId;
          })
          .catch((error: unknown) => {
            setAttachments((current) => current.filter((item) => item.key !== key));
            if (!abort.signal.aborted) store.fail(error);
            return undefined;
          })
          .finally(() => uploads.current.delete(key));
        finished.current.set(key, upload);
      }
    },
    [store, t, limitBytes, update],
  );

  const remove = useCallback(
    (key: string) => {
      removed.current.add(key);
      finished.current.delete(key);
      for (const notify of onRemoved.current) notify();
      uploads.current.get(key)?.abort();
      setAttachments((current) => {
        const takenOff = current.find((item) => item.key === key);
        if (takenOff?.uploadId) void store.client.call('cancelUpload', { uploadId: takenOff.uploadId }).catch(() => {});
        return current.filter((item) => item.key !== key);
      });
    },
    [store],
  );
  /** after the message that carried them was sent: the core has taken these uploads (files attached since stay) */
  const clear = useCallback((sent: Attachment[]) => {
    const keys = new Set(sent.map((item) => item.key));
    setAttachments((current) => current.filter((item) => !keys.has(item.key)));
    for (const key of keys) {
      finished.current.delete(key);
      removed.current.delete(key);
    }
  }, []);

  /**
   * The upload ids of `attached` once every one has finished uploading: a message sent while its files upload waits
   * for them. Undefined when one of them failed or was taken off meanwhile: then the message does not go.
   */
  const uploadedIds = useCallback(async (attached: Attachment[]): Promise<string[] | undefined> => {
    const takenOff = () => attached.some((item) => removed.current.has(item.key));
    let notify = () => {};
    // a file taken off ends the wait at once, whatever its upload is doing
    const removal = new Promise<undefined>((resolve) => {
      notify = () => {
        if (takenOff()) resolve(undefined);
      };
      onRemoved.current.add(notify);
    });
    try {
      const ids = await Promise.race([
        Promise.all(attached.map((item) => finished.current.get(item.key) ?? item.uploadId)),
        removal,
      ]);
      if (!ids || takenOff()) return undefined;
      return ids.every((id) => id !== undefined) ? (ids as string[]) : undefined;
    } finally {
      onRemoved.current.delete(notify);
    }
  }, []);

  // uploads still running when the window goes are stopped
  useEffect(() => {
    const running = uploads.current;
    return () => running.forEach((abort) => abort.abort());
  }, []);

  return { attachments, attach, remove, clear, uploadedIds };
}
