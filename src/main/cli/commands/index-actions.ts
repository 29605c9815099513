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
    process.stdout.write(`Added ${terminalText(folder)} as "${terminalText(name)}".\n`);
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
      process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
      return;
    }
    if (folders.length === 0) {
      process.stdout.write('No folders are indexed. Add one with `manus index add <folder>`.\n');
      return;
    }
    for (const folder of folders) {
      const when = folder.updatedAt ? new Date(folder.updatedAt).toISOString().slice(0, 16).replace('T', ' ') : 'never';
      process.stdout.write(
        `${terminalText(folder.name)}  ${terminalText(folder.path)}\n` +
          `  ${folder.files} files, ${folder.passages} passages, updated ${when}\n`,
      );
      for (const file of folder.unreadable) {
        process.stdout.write(`  cannot read ${terminalText(file.path)}: ${terminalText(file.reason)}\n`);
      }
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
    process.stdout.write(`Removed "${terminalText(name)}" from the index (its files are untouched).\n`);
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
      process.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
      return;
    }
    if (hits.length === 0) process.stdout.write('Nothing in the index matches.\n');
    for (const hit of hits) {
      const where = describeLocation(hit.location);
      process.stdout.write(
        `${terminalText(hit.folder)}/${terminalText(hit.path)}${where ? `, ${terminalText(where)}` : ''}  ` +
          `(score ${hit.score})\n  ${terminalText(hit.text.replace(/\s+/g, ' ').slice(0, 300))}\n`,
      );
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
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      process.stdout.write(
        `${terminalText(folder.name)}: ${summary.read} read, ${summary.unchanged} unchanged, ` +
          `${summary.removed} removed, ${summary.unreadable} could not be read` +
          `${summary.unreadable > 0 ? ' (see `manus index list`)' : ''}.\n`,
      );
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
  process.stderr.write(`\r\x1b[K${bar} ${progress.done}/${progress.total}${current}`);
}
