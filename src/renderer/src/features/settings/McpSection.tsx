import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpServerState } from '../../../../shared/contract.js';
import { ConfirmDialog } from '../common/ConfirmDialog.js';
import { FailureText, useAction } from '../common/use-action.js';
import { linesToRecord, recordToLines, type McpServerEntry, type SectionProps } from './settings-types.js';
import { McpServerEntrySchema, fieldProblems, isHttpUrl } from './settings-schemas.js';

const STATUS_POLL_MS = 3_000;

interface ServerDraft {
  originalName?: string;
  name: string;
  type: McpServerEntry['type'];
  command: string;
  args: string;
  env: string;
  url: string;
  headers: string;
  /** OAuth: a pre-registered client (the secret arrives masked and is kept when left so) */
  clientId: string;
  clientSecret: string;
  scope: string;
}

function draftOf(name?: string, entry?: McpServerEntry): ServerDraft {
  return {
    originalName: name,
    name: name ?? '',
    type: entry?.type ?? 'stdio',
    command: entry?.type === 'stdio' ? entry.command : '',
    args: entry?.type === 'stdio' ? entry.args.join('\n') : '',
    env: entry?.type === 'stdio' ? recordToLines(entry.env, '=') : '',
    url: entry && entry.type !== 'stdio' ? entry.url : '',
    headers: entry && entry.type !== 'stdio' ? recordToLines(entry.headers, ': ') : '',
    clientId: entry && entry.type !== 'stdio' ? (entry.oauth.clientId ?? '') : '',
    clientSecret: entry && entry.type !== 'stdio' ? (entry.oauth.clientSecret ?? '') : '',
    scope: entry && entry.type !== 'stdio' ? (entry.oauth.scope ?? '') : '',
  };
}

function entryOf(draft: ServerDraft, previous?: McpServerEntry): McpServerEntry {
  const common = {
    enabled: previous?.enabled ?? true,
    toolApproval: previous?.toolApproval ?? {},
    timeoutMs: previous?.timeoutMs ?? 30_000,
    connectTimeoutMs: previous?.connectTimeoutMs ?? 20_000,
  };
  if (draft.type === 'stdio') {
    return {
      type: 'stdio',
      command: draft.command.trim(),
      args: draft.args
        .split('\n')
        .map((arg) => arg.trim())
        .filter(Boolean),
      env: linesToRecord(draft.env, '='),
      ...common,
    };
  }
  const kept = previous && previous.type !== 'stdio' ? previous.oauth : {};
  const oauth = {
    ...kept,
    clientId: draft.clientId.trim() || undefined,
    clientSecret: (draft.clientId.trim() && draft.clientSecret.trim()) || undefined,
    scope: draft.scope.trim() || undefined,
  };
  return { type: draft.type, url: draft.url.trim(), headers: linesToRecord(draft.headers, ':'), oauth, ...common };
}

/** MCP servers: add/edit stdio, SSE and HTTP, import a JSON file, enable/disable, live status, tools and their approval. */
export function McpSection({ client, settings, save }: SectionProps) {
  const { t } = useTranslation();
  const [statuses, setStatuses] = useState<McpServerState[]>([]);
  const [editing, setEditing] = useState<ServerDraft>();
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<string>();
  const [openTools, setOpenTools] = useState<ReadonlySet<string>>(new Set());
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
          const state = entry.enabled ? (status?.status ?? 'connecting') : 'disabled';
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
              {status?.error && entry.enabled && !status.auth?.signInRequired ? (
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
        <ServerForm
          initial={editing}
          taken={Object.keys(servers).filter((name) => name !== editing.originalName)}
          onCancel={() => setEditing(undefined)}
          onSave={saveDraft}
        />
      ) : importing ? (
        <ImportForm
          client={client}
          onCancel={() => setImporting(false)}
          onImport={async () => {
            // the core saved the imported servers: the masked settings it returns now are saved back unchanged
            if (await save(await client.call('getSettings', {}))) setImporting(false);
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

function ServerForm({
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
  // the name is a key of the settings, which the contract leaves open; it becomes part of tool names (mcp_<name>_<tool>)
  const nameProblem = !/^[A-Za-z0-9_-]+$/.test(draft.name.trim())
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

function ImportForm({
  client,
  onCancel,
  onImport,
}: {
  client: SectionProps['client'];
  onCancel: () => void;
  onImport: () => Promise<void>;
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
          await client.call('importMcpConfig', { text });
          await onImport();
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

/** A remote server's OAuth sign-in: who is signed in and until when, Sign in / Sign out, the wait for the browser. */
function McpSignIn({
  name,
  auth,
  client,
  onChanged,
}: {
  name: string;
  auth: NonNullable<McpServerState['auth']>;
  client: SectionProps['client'];
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const action = useAction();
  const busy = action.busy;
  const act = async (request: 'mcpSignIn' | 'mcpSignInCancel' | 'mcpSignOut') => {
    await action.run(() => client.call(request, { name }));
    onChanged();
  };
  const waiting = auth.signIn?.state === 'waiting';
  const label = waiting
    ? t('settings.mcp.signIn.waiting')
    : auth.signInRequired
      ? t('settings.mcp.signIn.needed')
      : auth.signedIn
        ? [
            auth.account
              ? t('settings.mcp.signIn.signedInAs', { account: auth.account })
              : t('settings.mcp.signIn.signedIn'),
            auth.expiresAt
              ? t('settings.mcp.signIn.validUntil', { time: new Date(auth.expiresAt).toLocaleString() })
              : undefined,
          ]
            .filter(Boolean)
            .join(' · ')
        : t('settings.mcp.signIn.notSignedIn');
  return (
    <div className="mcp-sign-in" data-testid="mcp-sign-in" data-signed-in={auth.signedIn} data-waiting={waiting}>
      <span className="settings-card-meta" data-testid="mcp-sign-in-state">
        {label}
      </span>
      <FailureText failure={action.failure} />
      {auth.signIn?.state === 'failed' ? (
        <p className="form-error">{t('settings.mcp.signIn.failed', { error: auth.signIn.error ?? '' })}</p>
      ) : null}
      <div className="settings-card-actions">
        {waiting ? (
          <>
            {auth.signIn?.authorizationUrl ? (
              <a href={auth.signIn.authorizationUrl} target="_blank" rel="noreferrer" className="small">
                {t('settings.mcp.signIn.openAgain')}
              </a>
            ) : null}
            <button
              type="button"
              className="small"
              disabled={busy}
              onClick={() => void act('mcpSignInCancel')}
              data-testid="mcp-sign-in-cancel"
            >
              {t('settings.mcp.signIn.cancel')}
            </button>
          </>
        ) : (
          <button
            type="button"
            className={auth.signedIn ? 'small' : 'small primary'}
            disabled={busy}
            onClick={() => void act('mcpSignIn')}
            data-testid="mcp-sign-in-button"
          >
            {t('settings.mcp.signIn.signIn')}
          </button>
        )}
        {auth.signedIn && !waiting ? (
          <button
            type="button"
            className="small"
            disabled={busy}
            onClick={() => void act('mcpSignOut')}
            data-testid="mcp-sign-out-button"
          >
            {t('settings.mcp.signIn.signOut')}
          </button>
        ) : null}
      </div>
    </div>
  );
}
