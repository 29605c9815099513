import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppStore } from '../state/app-store.js';
import { readAttachment, type Attachment } from '../features/workspace/file-reading.js';

/** Files dropped on or picked in the composer, read as base64 until the message that carries them is sent. */
export function useAttachments(store: AppStore) {
  const { t } = useTranslation();
  const [attachments, setAttachments] = useState<Attachment[]>([]);

  const attach = useCallback(
    async (files: File[]) => {
      try {
        const read = await Promise.all(files.map(readAttachment));
        setAttachments((current) => [...current, ...read]);
      } catch (error) {
        store.fail({ code: 'too_large', message: (error as Error).message, hint: t('attach.limit') });
      }
    },
    [store, t],
  );
  const remove = useCallback(
    (index: number) => setAttachments((current) => current.filter((_, at) => at !== index)),
    [],
  );
  const clear = useCallback(() => setAttachments([]), []);

  return { attachments, attach, remove, clear };
}
