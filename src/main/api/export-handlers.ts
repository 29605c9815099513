import type { CoreHandlers } from '../../shared/contract.js';
import type { SessionStore } from '../store/store-api.js';
import { exportSessionJson, exportSessionMarkdown } from '../store/export.js';
import { collectSecrets } from '../store/settings-secrets.js';
import { environmentSecrets } from '../store/redact.js';
import { requireSession } from './session-lookup.js';
import type { SettingsAccess } from './settings-access.js';

const FILE_STEM_MAX = 60;

export type ExportHandlers = Pick<CoreHandlers, 'exportSession'>;

/** A download's name from the session's title; the session id when the title has no usable letters. */
function fileStem(title: string, sessionId: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, FILE_STEM_MAX);
  return slug || sessionId;
}

/** A session exported as JSON or Markdown, with every known secret redacted. */
export function createExportHandlers(options: { store: SessionStore; settings: SettingsAccess }): ExportHandlers {
  const { store, settings } = options;
  return {
    exportSession: ({ sessionId, format }) => {
      const session = requireSession(store, sessionId);
      // keys typed into settings or set in the environment never leave in an export, even if a tool echoed one
      const secrets = [...collectSecrets(settings.read()), ...environmentSecrets()];
      const stem = fileStem(session.title, sessionId);
      return format === 'json'
        ? {
            filename: `${stem}.json`,
            mimeType: 'application/json',
            content: exportSessionJson(store, sessionId, { secrets }),
          }
        : {
            filename: `${stem}.md`,
            mimeType: 'text/markdown',
            content: exportSessionMarkdown(store, sessionId, { secrets }),
          };
    },
  };
}
