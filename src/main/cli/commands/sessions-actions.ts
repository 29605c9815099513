import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { SESSION_STATUSES, SessionStatusSchema, type SessionInfo } from '../../../shared/events.js';
import { openCliContext, type CliContext } from '../cli-context.js';
import { deleteSessionEverywhere } from '../../store/session-files.js';
import { exportSessionJson, exportSessionMarkdown } from '../../store/export.js';
import { environmentSecrets } from '../../store/redact.js';
import { printOut, safeLine } from '../output/terminal-print.js';

async function withContext(command: Command, body: (context: CliContext) => void | Promise<void>): Promise<void> {
  const context = openCliContext({ dataDir: command.optsWithGlobals<{ dataDir?: string }>().dataDir });
  try {
    await body(context);
  } finally {
    context.close();
  }
}

function requireSession(context: CliContext, id: string): SessionInfo {
  const session = context.store.getSession(id);
  if (!session) throw new Error(`No session with id ${id}. See \`manus sessions list\`.`);
  return session;
}

/** The saved settings' schemas are many: loaded by the subcommands that read them, not by `list` */
const settingsStore = () => import('../../config/settings-store.js');

/** The keys in the settings and the environment: blanked out of what is shown or exported, even if a tool echoed one. */
async function knownSecrets(context: CliContext): Promise<string[]> {
  const [{ loadSettings }, { collectSecrets }] = await Promise.all([
    settingsStore(),
    import('../../store/settings-secrets.js'),
  ]);
  return [...collectSecrets(loadSettings(context.store, context.secrets)), ...environmentSecrets()];
}

function sessionLine(session: SessionInfo): string {
  const when = new Date(session.updatedAt).toISOString().replace('T', ' ').slice(0, 16);
  return safeLine`${session.id}  ${session.status.padEnd(11)} ${session.mode.padEnd(8)} ${when}  ${session.title}`;
}

/** `manus sessions list` */
export function listSessions(
  options: { json?: boolean; limit: number; search?: string; status?: string },
  command: Command,
): Promise<void> {
  const status = options.status === undefined ? undefined : SessionStatusSchema.safeParse(options.status);
  if (status && !status.success) {
    throw new Error(`No status "${options.status}". A session is one of: ${SESSION_STATUSES.join(', ')}.`);
  }
  return withContext(command, ({ store }) => {
    const list = options.search
      ? store
          .searchSessions(options.search, options.limit)
          .map((hit) => hit.session)
          .filter((session) => !status || session.status === status.data)
      : store.listSessions({ limit: options.limit, status: status?.data });
    if (options.json) printOut.json(list);
    else if (list.length === 0) printOut.line`No sessions yet. Start one with \`manus run "<task>"\`.`;
    else for (const session of list) printOut.line`${sessionLine(session)}`;
  });
}

/** `manus sessions show ID` */
export function showSession(id: string, command: Command): Promise<void> {
  return withContext(command, async (context) => {
    requireSession(context, id);
    const secrets = await knownSecrets(context);
    printOut.text(exportSessionMarkdown(context.store, id, { secrets }));
  });
}

/** `manus sessions rename ID TITLE...` */
export function renameSession(id: string, title: string[], command: Command): Promise<void> {
  return withContext(command, (context) => {
    requireSession(context, id);
    const session = context.store.updateSession(id, { title: title.join(' ') });
    printOut.line`${sessionLine(session)}`;
  });
}

/** `manus sessions delete ID` */
export function deleteSession(id: string, command: Command): Promise<void> {
  return withContext(command, async (context) => {
    requireSession(context, id);
    // Docker's client only loads for this subcommand: listing sessions never needs it
    const [{ cleanupClient, removeSessionSandbox }, { loadSettings }] = await Promise.all([
      import('../../sandbox/session-sandbox.js'),
      settingsStore(),
    ]);
    await removeSessionSandbox(
      id,
      cleanupClient(() => loadSettings(context.store, context.secrets).sandbox),
    );
    const outcome = deleteSessionEverywhere(context.store, context.dataDir, id);
    const kept = outcome.workspaceDeleted
      ? ''
      : ` Its folder ${outcome.workspace} was kept: ${outcome.workspaceKeptBecause ?? "not the session's own"}.`;
    printOut.line`Deleted session ${id}.${kept}`;
  });
}

/** `manus sessions export ID` */
export function exportSession(
  id: string,
  options: { format: 'md' | 'json'; output?: string },
  command: Command,
): Promise<void> {
  return withContext(command, async (context) => {
    requireSession(context, id);
    const exportOptions = { secrets: await knownSecrets(context) };
    const text =
      options.format === 'json'
        ? exportSessionJson(context.store, id, exportOptions)
        : exportSessionMarkdown(context.store, id, exportOptions);
    if (options.output) writeFileSync(options.output, text);
    else printOut.document(text);
  });
}
