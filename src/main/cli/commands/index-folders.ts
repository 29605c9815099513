import { Command } from 'commander';
import { positiveInt } from '../turn-options.js';

const actions = () => import('./index-actions.js');

/** `manus index ...`: folders indexed for search_files, their update, and search from the terminal. */
export function indexCommand(): Command {
  const index = new Command('index').description('folders the agent can search (search_files), with citations');

  index
    .command('add')
    .description('add a folder to the index and index it')
    .argument('<folder>')
    .option('--name <name>', 'what to call it (default: the folder name)')
    .action(async (folder: string, options: { name?: string }, command: Command) =>
      (await actions()).addFolder(folder, options, command),
    );

  index
    .command('list')
    .description('indexed folders: files, passages, last update, and the files that could not be read')
    .option('--json', 'as JSON')
    .action(async (options: { json?: boolean }, command: Command) => (await actions()).listFolders(options, command));

  index
    .command('update')
    .description('read what changed in one folder (or all) since the last update')
    .argument('[name]')
    .option('--wait', 'wait until the update is done (this command always does: it indexes in the foreground)')
    .action(async (name: string | undefined, _options: unknown, command: Command) =>
      (await actions()).updateFolders(name, command),
    );

  index
    .command('rm')
    .description('remove a folder from the index (its files are not touched)')
    .argument('<name>')
    .action(async (name: string, _options: unknown, command: Command) => (await actions()).removeFolder(name, command));

  index
    .command('search')
    .description('the passages that best match a query, best first')
    .argument('<query>')
    .option('--folder <name>', 'only this indexed folder')
    .option('--limit <k>', 'how many passages', positiveInt, 10)
    .option('--json', 'as JSON: [{ path, location, score, text }]')
    .action(async (query: string, options: { folder?: string; limit: number; json?: boolean }, command: Command) =>
      (await actions()).searchIndex(query, options, command),
    );

  return index;
}
