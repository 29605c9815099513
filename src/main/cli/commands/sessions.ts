import { Command, Option } from 'commander';
import { positiveInt } from '../turn-options.js';

const actions = () => import('./sessions-actions.js');

/** `manus sessions ...`: list, show, rename, delete and export saved sessions. */
export function sessionsCommand(): Command {
  const sessions = new Command('sessions').description('saved sessions');

  sessions
    .command('list')
    .description('list sessions, newest first')
    .option('--json', 'as JSON')
    .option('--limit <n>', 'how many', positiveInt, 50)
    .option('--search <query>', 'full-text search over titles and messages')
    .option('--status <status>', 'only sessions with this status (e.g. waiting: asking you something)')
    .action(async (options: { json?: boolean; limit: number; search?: string; status?: string }, command: Command) =>
      (await actions()).listSessions(options, command),
    );

  sessions
    .command('show')
    .description('show a session as Markdown')
    .argument('<id>')
    .action(async (id: string, _options: unknown, command: Command) => (await actions()).showSession(id, command));

  sessions
    .command('rename')
    .description('rename a session')
    .argument('<id>')
    .argument('<title...>')
    .action(async (id: string, title: string[], _options: unknown, command: Command) =>
      (await actions()).renameSession(id, title, command),
    );

  sessions
    .command('delete')
    .description('delete a session, its events and its own workspace folder')
    .argument('<id>')
    .action(async (id: string, _options: unknown, command: Command) => (await actions()).deleteSession(id, command));

  sessions
    .command('export')
    .description('export a session as Markdown or JSON')
    .argument('<id>')
    .addOption(new Option('--format <format>', 'md or json').choices(['md', 'json']).default('md'))
    .option('--output <file>', 'write to a file instead of stdout')
    .action(async (id: string, options: { format: 'md' | 'json'; output?: string }, command: Command) =>
      (await actions()).exportSession(id, options, command),
    );

  return sessions;
}
