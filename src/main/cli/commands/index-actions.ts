import { existsSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import type { Command } from 'commander';
import { describeLocation } from '../../../shared/document-text.js';
import { loadSettings } from '../../config/settings-store.js';
import { documentReaderFor } from '../../document/document-reader.js';
import { updateIndexFolder, type IndexProgress } from '../../knowledge/folder-indexer.js';
import { ownerLabelOf } from '../../sandbox/container-spec.js';
import type { IndexFolder } from '../../store/knowledge-store.js';
import { openCliContext, type CliContext } from '../cli-context.js';
import { printOut } from '../output/terminal-print.js';
import { terminalText } from '../output/terminal-text.js';

const NAME_PATTERN = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u;
const BAR_WIDTH = 24;

async function withContext(command: Command, body: (context: CliContext) => Promise<void> | void): Promise<void> {
  const context = openCliContext({ dataDir: command.optsWithGlobals<{ dataDir?: string }>().dataDir });
  try {
    await body(context);
  } finally {
    context.close();
  }
}

function requireFolder(context: CliContext, name: string): IndexFolder {
  const folder = context.store.knowledge.folder(name);
  if (!folder) throw new Error(`No indexed folder is called "${name}". See \`manus index list\`.`);
  return folder;
}

/** `manus index add <folder> [--name NAME]`: adds the folder and indexes it in the foreground. */
export function addFolder(path: string, options: { name?: string }, command: Command): Promise<void> {
  const folder = resolve(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new Error(`${path} is not a folder.`);
  const name = options.name ?? basename(folder);
  if (!NAME_PATTERN.test(name)) {
    throw new Error(`"${name}" cannot name a folder: letters, digits, spaces, . _ and -, at most 64 (--name).`);
  }
  return withContext(command, async (context) => {
    const added = context.store.knowledge.addFolder(name, folder);
    printOut.line`Added ${folder} as "${name}".`;
    await indexInForeground(context, [added]);
  });
}

/** `manus index list [--json]` */
export function listFolders(options: { json?: boolean }, command: Command): Promise<void> {
  return withContext(command, (context) => {
    const folders = context.store.knowledge.summaries();
    if (options.json) {
      const listed = folders.map(({ name, path, files, passages, updatedAt, unreadable }) => ({
        name,
        path,
        files,
        passages,
        updatedAt: updatedAt === undefined ? null : new Date(updatedAt).toISOString(),
        unreadable,
      }));
      printOut.json(listed);
      return;
    }
    if (folders.length === 0) {
      printOut.line`No folders are indexed. Add one with \`manus index add <folder>\`.`;
      return;
    }
    for (const folder of folders) {
      const when = folder.updatedAt ? new Date(folder.updatedAt).toISOString().slice(0, 16).replace('T', ' ') : 'never';
      printOut.line`${folder.name}  ${folder.path}`;
      printOut.line`  ${folder.files} files, ${folder.passages} passages, updated ${when}`;
      for (const file of folder.unreadable) printOut.line`  cannot read ${file.path}: ${file.reason}`;
    }
  });
}

/** `manus index update [NAME] [--wait]` */
export function updateFolders(name: string | undefined, command: Command): Promise<void> {
  return withContext(command, async (context) => {
    const folders = name === undefined ? context.store.knowledge.folders() : [requireFolder(context, name)];
    if (folders.length === 0) throw new Error('No folders are indexed. Add one with `manus index add <folder>`.');
    await indexInForeground(context, folders);
  });
}

/** `manus index rm NAME` */
export function removeFolder(name: string, command: Command): Promise<void> {
  return withContext(command, (context) => {
    requireFolder(context, name);
    context.store.knowledge.removeFolder(name);
    printOut.line`Removed "${name}" from the index (its files are untouched).`;
  });
}

/** `manus index search "<query>" [--folder NAME] [--limit K] [--json]` */
export function searchIndex(
  query: string,
  options: { folder?: string; limit: number; json?: boolean },
  command: Command,
): Promise<void> {
  return withContext(command, (context) => {
    const folder = options.folder === undefined ? undefined : requireFolder(context, options.folder);
    const hits = context.store.knowledge.search(query, { limit: options.limit, ...(folder ? { folder } : {}) });
    if (options.json) {
      const listed = hits.map(({ path, location, score, text }) => ({ path, location, score, text }));
      printOut.json(listed);
      return;
    }
    if (hits.length === 0) printOut.line`Nothing in the index matches.`;
    for (const hit of hits) {
      const where = describeLocation(hit.location);
      printOut.line`${hit.folder}/${hit.path}${where ? `, ${where}` : ''}  (score ${hit.score})`;
      printOut.line`  ${hit.text.replace(/\s+/g, ' ').slice(0, 300)}`;
    }
  });
}

async function indexInForeground(context: CliContext, folders: readonly IndexFolder[]): Promise<void> {
  const settings = loadSettings(context.store, context.secrets);
  const reader = documentReaderFor(settings.sandbox, ownerLabelOf(context.dataDir));
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  try {
    for (const folder of folders) {
      const summary = await updateIndexFolder(folder, {
        store: context.store.knowledge,
        reader,
        signal: stop.signal,
        onProgress: showProgress,
      });
      // eslint-disable-next-line no-restricted-syntax -- our own control: clears the progress bar's line
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      printOut.line`${folder.name}: ${summary.read} read, ${summary.unchanged} unchanged, ${summary.removed} removed, ${summary.unreadable} could not be read${summary.unreadable > 0 ? ' (see `manus index list`)' : ''}.`;
    }
  } finally {
    process.off('SIGINT', onSignal);
    await reader.close();
  }
}

/** a progress bar on a terminal; nothing when stderr is a pipe */
function showProgress(progress: IndexProgress): void {
  if (!process.stderr.isTTY) return;
  const share = progress.total === 0 ? 1 : progress.done / progress.total;
  const filled = Math.round(share * BAR_WIDTH);
  const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
  const current = progress.current ? ` ${terminalText(progress.current).slice(-40)}` : '';
  // eslint-disable-next-line no-restricted-syntax -- our own control redraws the bar; the file name passed terminalText
  process.stderr.write(`\r\x1b[K${bar} ${progress.done}/${progress.total}${current}`);
}
