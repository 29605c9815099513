import { linesToRecord, recordToLines, type McpServerEntry } from './settings-types.js';

/** The MCP server form's fields as typed: lines of text for lists and records. */
export interface ServerDraft {
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

export function draftOf(name?: string, entry?: McpServerEntry): ServerDraft {
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

export function entryOf(draft: ServerDraft, previous?: McpServerEntry): McpServerEntry {
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
