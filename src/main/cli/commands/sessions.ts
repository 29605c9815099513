import { writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { SessionInfo } from '../../../shared/events.js';
import { openCliContext, type CliContext } from '../cli-context.js';
import { deleteSessionEverywhere } from '../../store/session-files.js';
import { exportSessionJson, exportSessionMarkdown } from '../../store/export.js';
import { environmentSecrets } from '../../store/redact.js';
import { collectSecrets } from '../../store/settings-secrets.js';
import { loadSettings } from '../../config/settings-store.js';
import { positiveInt } from '../run-session.js';
import { terminalText } from '../output/terminal-text.js';
import { removeSessionSandbox } from '../../sandbox/session-sandbox.js';

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

/** The keys in the settings and the environment: blanked out of what is shown or exported, even if a tool echoed one. */
function knownSecrets(context: CliContext): string[] {
  return [...collectSecrets(loadSettings(context.store, context.secrets)), ...environmentSecrets()];
}

function sessionLine(session: SessionInfo): string {
  const when = new Date(session.updatedAt).toISOString().replace('T', ' ').slice(0, 16);
  return `${session.id}  ${session.status.padEnd(11)} ${session.mode.padEnd(8)} ${when}  ${terminalText(session.title)}`;
}

/** `manus sessions ...`: list, show, rename, delete and export saved sessions. */
export function sessionsCommand(): Command {
  const sessions = new Command('sessions').description('saved sessions');

  sessions
    .command('list')
    .description('list sessions, newest first')
    .option('--json', 'as JSON')
    .option('--limit <n>', 'how many', positiveInt, 50)
    .option('--search <query>', 'full-text search over titles and messages')
    .action((options: { json?: boolean; limit: number; search?: string }, command: Command) =>
      withContext(command, ({ store }) => {
        const list = options.search
          ? store.searchSessions(options.search, options.limit).map((hit) => hit.session)
          : store.listSessions({ limit: options.limit });
        if (options.json) process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
        else if (list.length === 0) process.stdout.write('No sessions yet. Start one with `manus run "<task>"`.\n');
        else process.stdout.write(`${list.map(sessionLine).join('\n')}\n`);
      }),
    );

  sessions
    .command('show')
    .description('show a session as Markdown')
    .argument('<id>')
    .action((id: string, _options: unknown, command: Command) =>
      withContext(command, (context) => {
        requireSession(context, id);
        process.stdout.write(
          terminalText(exportSessionMarkdown(context.store, id, { secrets: knownSecrets(context) })),
        );
      }),
    );

  sessions
    .command('rename')
    .description('rename a session')
    .argument('<id>')
    .argument('<title...>')
    .action((id: string, title: string[], _options: unknown, command: Command) =>
      withContext(command, (context) => {
        requireSession(context, id);
        const session = context.store.updateSession(id, { title: title.join(' ') });
        process.stdout.write(`${sessionLine(session)}\n`);
      }),
    );

  sessions
    .command('delete')
    .description('delete a session, its events and its own workspace folder')
    .argument('<id>')
    .action((id: string, _options: unknown, command: Command) =>
      withContext(command, async (context) => {
        requireSession(context, id);
        await removeSessionSandbox(id);
        const outcome = deleteSessionEverywhere(context.store, context.dataDir, id);
        const kept = outcome.workspaceDeleted
          ? ''
          : ` Its folder ${outcome.workspace} was kept: ${outcome.workspaceKeptBecause ?? "not the session's own"}.`;
        process.stdout.write(`Deleted session ${id}.${kept}\n`);
      }),
    );

  sessions
    .command('export')
    .description('export a session as Markdown or JSON')
    .argument('<id>')
    .addOption(new Option('--format <format>', 'md or json').choices(['md', 'json']).default('md'))
    .option('--output <file>', 'write to a file instead of stdout')
    .action((id: string, options: { format: 'md' | 'json'; output?: string }, command: Command) =>
      withContext(command, (context) => {
        requireSession(context, id);
        const exportOptions = { secrets: knownSecrets(context) };
        const text =
          options.format === 'json'
            ? exportSessionJson(context.store, id, exportOptions)
            : exportSessionMarkdown(context.store, id, exportOptions);
        if (options.output) writeFileSync(options.output, text);
        else process.stdout.write(text);
      }),
    );

  return sessions;
}
