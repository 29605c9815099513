import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FailureText, useAction } from '../common/use-action.js';
import type { SectionProps } from './settings-types.js';

/** Paste or pick a {"mcpServers": {…}} file to add its servers. */
export function McpImportForm({
  client,
  onCancel,
  onImport,
}: {
  client: SectionProps['client'];
  onCancel: () => void;
  /** the import was saved; `skipped` names the entries left out and why */
  onImport: (skipped: { name: string; reason: string }[]) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const action = useAction();
  return (
    <form
      className="settings-form"
      onSubmit={(event) => {
        event.preventDefault();
        void action.run(async () => {
          const { skipped } = await client.call('importMcpConfig', { text });
          await onImport(skipped);
        });
      }}
    >
      <h3>{t('settings.mcp.import')}</h3>
      <p className="field-help">{t('settings.mcp.importHelp')}</p>
      <textarea
        className="mono"
        rows={8}
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={
          '{\n  "mcpServers": {\n    "everything": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-everything"] }\n  }\n}'
        }
        data-testid="mcp-import-text"
      />
      <input
        type="file"
        accept="application/json,.json"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void file.text().then(setText);
        }}
      />
      <FailureText failure={action.failure} />
      <div className="form-actions">
        <span className="spacer" />
        <button type="button" className="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button
          type="submit"
          className="primary"
          disabled={!text.trim() || action.busy}
          data-testid="import-mcp-submit"
        >
          {t('settings.mcp.importButton')}
        </button>
      </div>
    </form>
  );
}
