import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FailureText, useAction } from '../common/use-action.js';
import { entryOf, type ServerDraft } from './mcp-server-draft.js';
import { MCP_SERVER_NAME } from '../../../../shared/settings/mcp-settings.js';
import { McpServerEntrySchema, fieldProblems, isHttpUrl } from './settings-schemas.js';

/** Add or edit one MCP server: stdio command or remote URL, environment or headers, a pre-registered OAuth client. */
export function McpServerForm({
  initial,
  taken,
  onCancel,
  onSave,
}: {
  initial: ServerDraft;
  taken: string[];
  onCancel: () => void;
  onSave: (draft: ServerDraft) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const saving = useAction();
  const set = <K extends keyof ServerDraft>(key: K, value: ServerDraft[K]) =>
    setDraft((current) => ({ ...current, [key]: value }));
  // the name is a key of the settings (the contract's rule) and part of tool names (mcp_<name>_<tool>)
  const nameProblem = !MCP_SERVER_NAME.test(draft.name.trim())
    ? t('settings.mcp.nameRule')
    : taken.includes(draft.name.trim())
      ? t('settings.providers.nameTaken')
      : undefined;
  const entry = entryOf(draft);
  const problems = fieldProblems(McpServerEntrySchema, entry, {
    command: t('settings.mcp.commandRequired'),
    url: t('settings.providers.badUrl'),
  });
  const targetProblem =
    entry.type === 'stdio'
      ? problems.command
      : (problems.url ?? (isHttpUrl(entry.url) ? undefined : t('settings.providers.badUrl')));
  return (
    <form
      className="settings-form"
      data-testid="mcp-form"
      onSubmit={(event) => {
        event.preventDefault();
        if (!nameProblem && !targetProblem) void saving.run(() => onSave(draft));
      }}
    >
      <h3>{initial.originalName ? t('settings.mcp.edit') : t('settings.mcp.add')}</h3>
      <div className="field-row">
        <label className="field">
          <span>{t('settings.providers.name')}</span>
          <input value={draft.name} onChange={(event) => set('name', event.target.value)} data-testid="mcp-name" />
          {draft.name && nameProblem ? <small className="field-problem">{nameProblem}</small> : null}
        </label>
        <label className="field">
          <span>{t('settings.mcp.type')}</span>
          <select
            value={draft.type}
            onChange={(event) => set('type', event.target.value as ServerDraft['type'])}
            data-testid="mcp-type"
          >
            <option value="stdio">stdio</option>
            <option value="sse">SSE</option>
            <option value="http">HTTP</option>
          </select>
        </label>
      </div>
      {draft.type === 'stdio' ? (
        <>
          <label className="field">
            <span>{t('settings.mcp.command')}</span>
            <input
              value={draft.command}
              onChange={(event) => set('command', event.target.value)}
              placeholder="npx"
              data-testid="mcp-command"
            />
          </label>
          <label className="field">
            <span>{t('settings.mcp.args')}</span>
            <textarea
              rows={3}
              value={draft.args}
              onChange={(event) => set('args', event.target.value)}
              placeholder="-y&#10;@modelcontextprotocol/server-everything"
              data-testid="mcp-args"
            />
          </label>
          <label className="field">
            <span>{t('settings.mcp.env')}</span>
            <textarea
              rows={2}
              value={draft.env}
              onChange={(event) => set('env', event.target.value)}
              placeholder="API_TOKEN=…"
            />
            <small className="field-help">{t('settings.mcp.secretHelp')}</small>
          </label>
        </>
      ) : (
        <>
          <label className="field">
            <span>URL</span>
            <input
              value={draft.url}
              onChange={(event) => set('url', event.target.value)}
              placeholder="http://127.0.0.1:3001/mcp"
              data-testid="mcp-url"
            />
          </label>
          <label className="field">
            <span>{t('settings.mcp.headers')}</span>
            <textarea
              rows={2}
              value={draft.headers}
              onChange={(event) => set('headers', event.target.value)}
              placeholder="Authorization: Bearer …"
            />
            <small className="field-help">{t('settings.mcp.secretHelp')}</small>
          </label>
          <fieldset className="field-group">
            <legend>{t('settings.mcp.oauth.title')}</legend>
            <small className="field-help">{t('settings.mcp.oauth.help')}</small>
            <label className="field">
              <span>{t('settings.mcp.oauth.clientId')}</span>
              <input
                value={draft.clientId}
                onChange={(event) => set('clientId', event.target.value)}
                data-testid="mcp-client-id"
              />
            </label>
            <label className="field">
              <span>{t('settings.mcp.oauth.clientSecret')}</span>
              <input
                type="password"
                value={draft.clientSecret}
                onChange={(event) => set('clientSecret', event.target.value)}
                disabled={!draft.clientId.trim()}
                data-testid="mcp-client-secret"
              />
            </label>
            <label className="field">
              <span>{t('settings.mcp.oauth.scope')}</span>
              <input
                value={draft.scope}
                onChange={(event) => set('scope', event.target.value)}
                data-testid="mcp-scope"
              />
            </label>
          </fieldset>
        </>
      )}
      {targetProblem && (draft.command || draft.url) ? <small className="field-problem">{targetProblem}</small> : null}
      <FailureText failure={saving.failure} />
      <div className="form-actions">
        <span className="spacer" />
        <button type="button" className="ghost" onClick={onCancel}>
          {t('common.cancel')}
        </button>
        <button
          type="submit"
          className="primary"
          disabled={Boolean(nameProblem || targetProblem) || saving.busy}
          data-testid="save-mcp"
        >
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
