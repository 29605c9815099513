import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpServerState } from '../../../../shared/contract.js';
import { ConfirmDialog } from '../common/ConfirmDialog.js';
import type { McpServerEntry, SectionProps } from './settings-types.js';
import { draftOf, entryOf, type ServerDraft } from './mcp-server-draft.js';
import { McpServerForm } from './McpServerForm.js';
import { McpImportForm } from './McpImportForm.js';
import { McpSignIn } from './McpSignIn.js';
import { McpUnconfirmed } from './McpUnconfirmed.js';

const STATUS_POLL_MS = 3_000;

export function McpSection({ client, settings, save }: SectionProps) {
  const { t } = useTranslation();
  const [statuses, setStatuses] = useState<McpServerState[]>([]);
  const [editing, setEditing] = useState<ServerDraft>();
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<string>();
  const [openTools, setOpenTools] = useState<ReadonlySet<string>>(new Set());
  const [importSkipped, setImportSkipped] = useState<{ name: string; reason: string }[]>([]);
  const servers = settings.mcp.servers;

  const refresh = useCallback(async () => {
    try {
      setStatuses(await client.call('mcpStatus', {}));
    } catch {
      // the next poll tries again; the list still shows the configuration
    }
  }, [client]);

  useEffect(() => {
    const first = setTimeout(() => void refresh(), 0);
    const timer = setInterval(() => void refresh(), STATUS_POLL_MS);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [refresh, settings]);

  const saveServers = (next: Record<string, McpServerEntry>) =>
    save({ ...settings, mcp: { ...settings.mcp, servers: next } });

  const update = (name: string, entry: McpServerEntry) => void saveServers({ ...servers, [name]: entry });

  // the core changed the settings (an import, a confirmation): the masked settings it returns are saved back unchanged
  const reload = async () => save(await client.call('getSettings', {}));

  const saveDraft = async (draft: ServerDraft) => {
    const next = { ...servers };
    const previous = draft.originalName ? next[draft.originalName] : undefined;
    if (draft.originalName) delete next[draft.originalName];
    next[draft.name.trim()] = entryOf(draft, previous);
    if (await saveServers(next)) setEditing(undefined);
  };

  return (
    <div className="settings-stack">
      <ul className="card-list" data-testid="mcp-list">
        {Object.keys(servers).length === 0 ? <li className="panel-empty">{t('settings.mcp.none')}</li> : null}
        {Object.entries(servers).map(([name, entry]) => {
          const status = statuses.find((candidate) => candidate.name === name);
          const unconfirmed = entry.type === 'stdio' && entry.unconfirmed === true;
          const state = !entry.enabled ? 'disabled' : unconfirmed ? 'unconfirmed' : (status?.status ?? 'connecting');
          const toolsOpen = openTools.has(name);
          return (
            <li key={name} className="settings-card column" data-server={name} data-state={state}>
              <div className="settings-card-row">
                <span className={`status-dot mcp-${state}`} aria-hidden />
                <div className="settings-card-main">
                  <strong>{name}</strong> <span className="badge">{entry.type}</span>{' '}
                  <span className={`mcp-state mcp-${state}`} data-testid="mcp-state">
                    {t(`settings.mcp.states.${state}`, { defaultValue: state })}
                  </span>
                  <div className="settings-card-meta">
                    {entry.type === 'stdio' ? `${entry.command} ${entry.args.join(' ')}` : entry.url}
                  </div>
                </div>
                <div className="settings-card-actions">
                  <label className="switch" title={t('settings.mcp.enabled')}>
                    <input
                      type="checkbox"
                      checked={entry.enabled}
                      onChange={(event) => update(name, { ...entry, enabled: event.target.checked })}
                      aria-label={t('settings.mcp.enabled')}
                    />
                    <span />
                  </label>
                  <button type="button" className="small" onClick={() => setEditing(draftOf(name, entry))}>
                    {t('common.edit')}
                  </button>
                  <button type="button" className="small danger-text" onClick={() => setDeleting(name)}>
                    {t('common.delete')}
                  </button>
                </div>
              </div>
              {entry.type === 'stdio' && unconfirmed ? (
                <McpUnconfirmed
                  name={name}
                  entry={entry}
                  client={client}
                  onConfirmed={async () => {
                    await reload();
                    await refresh();
                  }}
                />
              ) : null}
              {status?.error && entry.enabled && !status.auth?.signInRequired && !unconfirmed ? (
                <p className="form-error">{status.error}</p>
              ) : null}
              {status?.auth && entry.enabled ? (
                <McpSignIn name={name} auth={status.auth} client={client} onChanged={() => void refresh()} />
              ) : null}
              {status && status.tools.length > 0 ? (
                <div className="mcp-tools">
                  <button
                    type="button"
                    className="ghost small"
                    onClick={() =>
                      setOpenTools((current) => {
                        const next = new Set(current);
                        if (next.has(name)) next.delete(name);
                        else next.add(name);
                        return next;
                      })
                    }
                    data-testid="mcp-tools-toggle"
                  >
                    {toolsOpen ? '▾' : '▸'} {t('settings.mcp.tools', { count: status.tools.length })}
                    {status.prompts ? ` · ${t('settings.mcp.prompts', { count: status.prompts })}` : ''}
                    {status.resources ? ` · ${t('settings.mcp.resources', { count: status.resources })}` : ''}
                  </button>
                  {toolsOpen ? (
                    <table className="mcp-tool-table">
                      <tbody>
                        {status.tools.map((tool) => (
                          <tr key={tool.name} data-tool={tool.name}>
                            <td className="mcp-tool-name">{tool.name}</td>
                            <td className="mcp-tool-description">{tool.description}</td>
                            <td>
                              <select
                                value={entry.toolApproval[tool.name] ?? 'default'}
                                aria-label={t('settings.mcp.approval')}
                                onChange={(event) => {
                                  const toolApproval = { ...entry.toolApproval };
                                  if (event.target.value === 'default') delete toolApproval[tool.name];
                                  else toolApproval[tool.name] = event.target.value as 'auto' | 'ask';
                                  update(name, { ...entry, toolApproval });
                                }}
                              >
                                <option value="default">{t('settings.mcp.approvalDefault')}</option>
                                <option value="auto">{t('settings.mcp.approvalAuto')}</option>
                                <option value="ask">{t('settings.mcp.approvalAsk')}</option>
                              </select>
                            </td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  ) : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
      {editing ? (
        <McpServerForm
          initial={editing}
          taken={Object.keys(servers).filter((name) => name !== editing.originalName)}
          onCancel={() => setEditing(undefined)}
          onSave={saveDraft}
        />
      ) : importing ? (
        <McpImportForm
          client={client}
          onCancel={() => setImporting(false)}
          onImport={async (skipped) => {
            setImportSkipped(skipped);
            if (await reload()) setImporting(false);
          }}
        />
      ) : (
        <div className="form-actions">
          <button type="button" className="primary" onClick={() => setEditing(draftOf())} data-testid="add-mcp">
            + {t('settings.mcp.add')}
          </button>
          <button type="button" onClick={() => setImporting(true)} data-testid="import-mcp">
            {t('settings.mcp.import')}
          </button>
        </div>
      )}
      {importSkipped.length ? (
        <div className="form-error" data-testid="mcp-import-skipped">
          {t('settings.mcp.importSkipped')}
          <ul>
            {importSkipped.map(({ name, reason }) => (
              <li key={name}>
                {JSON.stringify(name)}: {reason}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={t('settings.mcp.deleteTitle', { name: deleting })}
          confirmLabel={t('common.delete')}
          danger
          onConfirm={() => {
            const next = { ...servers };
            delete next[deleting];
            void saveServers(next);
            setDeleting(undefined);
          }}
          onCancel={() => setDeleting(undefined)}
        />
      ) : null}
    </div>
  );
}
