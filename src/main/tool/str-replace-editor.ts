import { promises as fs, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { settingsOf } from '../config/session-settings.js';
import { clipOutput } from '../sandbox/clip-output.js';
import { errorText } from '../sandbox/engine.js';
import { OutsideWorkspaceError, resolveWorkspacePath, type WorkspacePath } from '../sandbox/workspace-path.js';
import { defineResource } from '../session/resources.js';
import { defineTool, toolError, toolOutput, type ToolContext, type ToolResult } from './tool.js';

/** lines of context shown around an edit */
const SNIPPET_LINES = 4;
/** edits remembered per file for undo_edit */
const UNDO_DEPTH = 20;
const FOLDER_DEPTH = 2;
const FOLDER_ENTRIES_MAX = 500;

export const StrReplaceEditorParameters = z.object({
  command: z.enum(['view', 'create', 'str_replace', 'insert', 'undo_edit']),
  path: z
    .string()
    .describe('File or folder under /workspace (absolute, e.g. /workspace/app.py, or relative to /workspace).'),
  file_text: z.string().optional().describe('create: the content of the new file.'),
  old_str: z.string().optional().describe('str_replace: the exact text to replace; it must occur exactly once.'),
  new_str: z.string().optional().describe('str_replace: the replacement (default empty); insert: the text to insert.'),
  insert_line: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('insert: the new text goes after this line (0 = at the top).'),
  view_range: z
    .tuple([z.number().int().positive(), z.number().int().min(-1)])
    .optional()
    .describe('view: [first, last] line numbers, 1-based; last -1 means to the end.'),
});
type EditorArgs = z.infer<typeof StrReplaceEditorParameters>;

/** previous contents per host path, newest last; undefined: the file did not exist */
type EditHistory = Map<string, (string | undefined)[]>;
const editHistoryResource = defineResource<EditHistory>({
  name: 'str_replace_editor.history',
  create: () => new Map(),
});

class EditorError extends Error {}

export const strReplaceEditorTool = defineTool({
  name: 'str_replace_editor',
  description:
    'View, create and edit files in the session workspace (/workspace, which the user sees). view: a file with line ' +
    'numbers (view_range for a part) or a folder two levels deep. create: a new file. str_replace: replace old_str, which ' +
    'must occur exactly once, by new_str. insert: new_str after line insert_line. undo_edit: revert the last edit of the file.',
  parameters: StrReplaceEditorParameters,
  risk: 'write',
  riskOf: (args) => (args.command === 'view' ? 'read' : 'write'),
  async execute(args, ctx) {
    try {
      await fs.mkdir(ctx.workspace, { recursive: true });
      const target = await resolveWorkspacePath(ctx.workspace, args.path);
      const maxObserve = settingsOf(ctx).agent.maxObserve;
      const shown = settingsOf(ctx).sandbox.mode === 'local' ? { ...target, shown: target.host } : target;
      switch (args.command) {
        case 'view':
          return await view(shown, args, maxObserve);
        case 'create':
          return await create(shown, args, ctx);
        case 'str_replace':
          return await strReplace(shown, args, ctx);
        case 'insert':
          return await insert(shown, args, ctx);
        case 'undo_edit':
          return await undo(shown, ctx);
      }
    } catch (error) {
      if (error instanceof OutsideWorkspaceError || error instanceof EditorError) return toolError(error.message);
      return toolError(`str_replace_editor ${args.command} ${args.path} failed: ${errorText(error)}`);
    }
  },
});

async function view(target: WorkspacePath, args: EditorArgs, maxObserve: number): Promise<ToolResult> {
  const stat = await statOrNull(target.host);
  if (!stat) throw new EditorError(`${target.shown} does not exist.`);
  if (stat.isDirectory()) {
    if (args.view_range) throw new EditorError('view_range applies to files, not folders.');
    const lines = await listFolder(target.host, FOLDER_DEPTH);
    const header = `Files and folders in ${target.shown}, ${FOLDER_DEPTH} levels deep (hidden ones left out):`;
    return toolOutput(clipOutput([header, ...lines].join('\n'), maxObserve));
  }
  const text = await readText(target);
  const lines = text.split('\n');
  let first = 1;
  let last = lines.length;
  if (args.view_range) {
    [first, last] = args.view_range;
    if (last === -1) last = lines.length;
    if (first > lines.length)
      throw new EditorError(`view_range starts at line ${first} but ${target.shown} has ${lines.length} lines.`);
    if (last < first) throw new EditorError(`view_range [${first}, ${last}]: the last line comes before the first.`);
    last = Math.min(last, lines.length);
  }
  const numbered = numberLines(lines.slice(first - 1, last), first);
  if (numbered.length <= maxObserve) return toolOutput(`${target.shown}:\n${numbered}`);
  const clipped = numbered.slice(0, maxObserve);
  const shownLines = clipped.split('\n').length - 1;
  return toolOutput(
    `${target.shown}:\n${clipped.slice(0, clipped.lastIndexOf('\n'))}\n[... file clipped: showing lines ${first}-${first + shownLines - 1} ` +
      `of ${lines.length}. Use view_range to see the rest.]`,
  );
}

async function create(target: WorkspacePath, args: EditorArgs, ctx: ToolContext): Promise<ToolResult> {
  if (args.file_text === undefined) throw new EditorError('create needs file_text (the content of the new file).');
  const stat = await statOrNull(target.host);
  if (stat?.isDirectory()) throw new EditorError(`${target.shown} is a folder.`);
  if (stat)
    throw new EditorError(
      `${target.shown} already exists; create does not overwrite. Edit it with str_replace or insert.`,
    );
  await fs.mkdir(dirname(target.host), { recursive: true });
  await remember(ctx, target.host, undefined);
  await fs.writeFile(target.host, args.file_text, { flag: 'wx' });
  return toolOutput(`Created ${target.shown} (${countLines(args.file_text)} lines).`);
}

async function strReplace(target: WorkspacePath, args: EditorArgs, ctx: ToolContext): Promise<ToolResult> {
  if (args.old_str === undefined || args.old_str === '')
    throw new EditorError('str_replace needs old_str (the exact text to replace).');
  const text = await readText(target);
  const occurrences = countOccurrences(text, args.old_str);
  if (occurrences === 0)
    throw new EditorError(
      `old_str was not found in ${target.shown}; nothing was changed. It must match exactly, including whitespace.`,
    );
  if (occurrences > 1) {
    const lines = lineNumbersOf(text, args.old_str);
    throw new EditorError(
      `old_str occurs ${occurrences} times in ${target.shown} (lines ${lines.join(', ')}); nothing was changed. Include more context so it is unique.`,
    );
  }
  const newStr = args.new_str ?? '';
  const at = text.indexOf(args.old_str);
  const updated = text.slice(0, at) + newStr + text.slice(at + args.old_str.length);
  await remember(ctx, target.host, text);
  await fs.writeFile(target.host, updated);
  const startLine = countLines(text.slice(0, at));
  return toolOutput(
    `Edited ${target.shown}. The changed part now reads:\n${snippet(updated, startLine, countLines(newStr))}`,
  );
}

async function insert(target: WorkspacePath, args: EditorArgs, ctx: ToolContext): Promise<ToolResult> {
  if (args.insert_line === undefined) throw new EditorError('insert needs insert_line (0 inserts at the top).');
  if (args.new_str === undefined) throw new EditorError('insert needs new_str (the text to insert).');
  const text = await readText(target);
  const lines = text.split('\n');
  if (args.insert_line > lines.length) {
    throw new EditorError(
      `insert_line ${args.insert_line} is past the end of ${target.shown} (${lines.length} lines).`,
    );
  }
  const inserted = args.new_str.replace(/\n$/, '').split('\n');
  const updated = [...lines.slice(0, args.insert_line), ...inserted, ...lines.slice(args.insert_line)].join('\n');
  await remember(ctx, target.host, text);
  await fs.writeFile(target.host, updated);
  return toolOutput(
    `Inserted ${inserted.length} line(s) into ${target.shown}:\n${snippet(updated, args.insert_line + 1, inserted.length)}`,
  );
}

async function undo(target: WorkspacePath, ctx: ToolContext): Promise<ToolResult> {
  const history = await ctx.resources.get(editHistoryResource);
  const previous = history.get(target.host);
  if (!previous || previous.length === 0) throw new EditorError(`There is no edit of ${target.shown} to undo.`);
  const content = previous.pop();
  if (content === undefined) {
    await fs.rm(target.host, { force: true });
    return toolOutput(`Undid the creation of ${target.shown}: the file was removed.`);
  }
  await fs.writeFile(target.host, content);
  return toolOutput(`Undid the last edit of ${target.shown}. It now reads:\n${snippet(content, 1, 0)}`);
}

async function remember(ctx: ToolContext, host: string, content: string | undefined): Promise<void> {
  const history = await ctx.resources.get(editHistoryResource);
  const versions = history.get(host) ?? [];
  versions.push(content);
  if (versions.length > UNDO_DEPTH) versions.shift();
  history.set(host, versions);
}

async function readText(target: WorkspacePath): Promise<string> {
  const stat = await statOrNull(target.host);
  if (!stat) throw new EditorError(`${target.shown} does not exist.`);
  if (stat.isDirectory()) throw new EditorError(`${target.shown} is a folder; this command needs a file.`);
  const bytes = await fs.readFile(target.host);
  if (bytes.subarray(0, 8000).includes(0))
    throw new EditorError(`${target.shown} looks like a binary file; it cannot be viewed or edited as text.`);
  return bytes.toString('utf8');
}

async function listFolder(root: string, depth: number): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (folder: string, level: number, prefix: string): Promise<void> => {
    const entries = (await fs.readdir(folder, { withFileTypes: true }))
      .filter((entry) => !entry.name.startsWith('.'))
      .sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (lines.length >= FOLDER_ENTRIES_MAX) return;
      const path = join(folder, entry.name);
      const isFolder = entry.isDirectory();
      lines.push(`${'  '.repeat(level)}${prefix}${entry.name}${isFolder ? '/' : ''}`);
      if (isFolder && level + 1 < depth) await walk(path, level + 1, '');
    }
  };
  await walk(root, 0, '');
  if (lines.length >= FOLDER_ENTRIES_MAX)
    lines.push(`[... more than ${FOLDER_ENTRIES_MAX} entries; view a subfolder to see the rest]`);
  if (lines.length === 0) lines.push('(empty)');
  return lines;
}

function numberLines(lines: string[], first: number): string {
  const width = String(first + lines.length - 1).length;
  return lines.map((line, index) => `${String(first + index).padStart(Math.max(width, 6))}\t${line}`).join('\n');
}

function snippet(text: string, startLine: number, changedLines: number): string {
  const lines = text.split('\n');
  const from = Math.max(1, startLine - SNIPPET_LINES);
  const to = Math.min(lines.length, startLine + Math.max(changedLines, 1) - 1 + SNIPPET_LINES);
  return numberLines(lines.slice(from - 1, to), from);
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

function lineNumbersOf(text: string, needle: string): number[] {
  const lines: number[] = [];
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) {
    lines.push(countLines(text.slice(0, at)));
  }
  return lines;
}

/** 1-based number of the line where text ending here sits (the count of lines in it) */
function countLines(text: string): number {
  return text.split('\n').length;
}

async function statOrNull(path: string): Promise<Stats | null> {
  return fs.stat(path).catch(() => null);
}
