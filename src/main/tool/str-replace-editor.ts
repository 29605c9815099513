import { z } from 'zod';
import { clipOutput } from '../sandbox/clip-output.js';
import { errorText } from '../sandbox/engine.js';
import { WorkspacePathError } from '../workspace/workspace-path-error.js';
import { WorkspaceRoot, type OpenedFile, type WorkspaceTarget } from '../workspace/workspace-root.js';
import { walkTree } from '../workspace/workspace-tree.js';
import type { EditHistory } from './session-context.js';
import { defineTool, toolError, toolOutput, type ToolContext, type ToolResult } from './tool.js';

/** lines of context shown around an edit */
const SNIPPET_LINES = 4;
/** edits remembered per file for undo_edit */
const UNDO_DEPTH = 20;
const FOLDER_DEPTH = 2;
const FOLDER_ENTRIES_MAX = 500;
/** larger files are left to bash: the host reads a file whole, and the sandbox can make a sparse file of any size */
const MAX_TEXT_BYTES = 10 * 1024 * 1024;

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

class EditorError extends Error {}

/** fatal: invalid UTF-8 is refused, never replaced by U+FFFD; ignoreBOM: a byte-order mark is kept as text */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export const strReplaceEditorTool = defineTool({
  name: 'str_replace_editor',
  kind: 'file',
  description:
    'View, create and edit files in the session workspace (/workspace, which the user sees). view: a file with line ' +
    'numbers (view_range for a part) or a folder two levels deep. create: a new file. str_replace: replace old_str, which ' +
    'must occur exactly once, by new_str. insert: new_str after line insert_line. undo_edit: revert the last edit of the file.',
  parameters: StrReplaceEditorParameters,
  risk: 'write',
  riskOf: (args) => (args.command === 'view' ? 'read' : 'write'),
  async execute(args, ctx: ToolContext<'settings' | 'edits'>) {
    try {
      const settings = ctx.session.settings();
      const history = ctx.session.edits;
      return WorkspaceRoot.with(
        ctx.workspace,
        (root) => {
          const target = root.target(args.path);
          const file: EditedFile = { root, target, history };
          switch (args.command) {
            case 'view':
              return view(file, args, settings.agent.maxObserve);
            case 'create':
              return create(file, args);
            case 'str_replace':
              return strReplace(file, args);
            case 'insert':
              return insert(file, args);
            case 'undo_edit':
              return undo(file);
          }
        },
        { showHostPaths: settings.sandbox.mode === 'local' },
      );
    } catch (error) {
      if (error instanceof WorkspacePathError || error instanceof EditorError) return toolError(error.message);
      return toolError(`str_replace_editor ${args.command} ${args.path} failed: ${errorText(error)}`);
    }
  },
});

/** The file a command works on, in its workspace, with the session's edit history. */
interface EditedFile {
  root: WorkspaceRoot;
  target: WorkspaceTarget;
  history: EditHistory;
}

function view({ root, target }: EditedFile, args: EditorArgs, maxObserve: number): ToolResult {
  const stat = root.lstat(target.parts);
  if (!stat) throw new EditorError(`${target.shown} does not exist.`);
  if (stat.isDirectory()) {
    if (args.view_range) throw new EditorError('view_range applies to files, not folders.');
    const lines = listFolder(root, target.parts, FOLDER_DEPTH);
    const header = `Files and folders in ${target.shown}, ${FOLDER_DEPTH} levels deep (hidden ones left out):`;
    return toolOutput(clipOutput([header, ...lines].join('\n'), maxObserve));
  }
  const file = root.openFile(target.parts, 'read');
  let text: string;
  try {
    text = readText(target, file);
  } finally {
    file.close();
  }
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

function create({ root, target, history }: EditedFile, args: EditorArgs): ToolResult {
  if (args.file_text === undefined) throw new EditorError('create needs file_text (the content of the new file).');
  const stat = root.lstat(target.parts);
  if (stat?.isDirectory()) throw new EditorError(`${target.shown} is a folder.`);
  if (stat)
    throw new EditorError(
      `${target.shown} already exists; create does not overwrite. Edit it with str_replace or insert.`,
    );
  root.createFile(target.parts, Buffer.from(args.file_text));
  remember(history, target, undefined);
  return toolOutput(`Created ${target.shown} (${countLines(args.file_text)} lines).`);
}

function strReplace(file: EditedFile, args: EditorArgs): ToolResult {
  const { target } = file;
  if (args.old_str === undefined || args.old_str === '')
    throw new EditorError('str_replace needs old_str (the exact text to replace).');
  const oldStr = args.old_str;
  return rewrite(file, (text) => {
    const occurrences = countOccurrences(text, oldStr);
    if (occurrences === 0)
      throw new EditorError(
        `old_str was not found in ${target.shown}; nothing was changed. It must match exactly, including whitespace.`,
      );
    if (occurrences > 1) {
      const lines = lineNumbersOf(text, oldStr);
      throw new EditorError(
        `old_str occurs ${occurrences} times in ${target.shown} (lines ${lines.join(', ')}); nothing was changed. Include more context so it is unique.`,
      );
    }
    const newStr = args.new_str ?? '';
    const at = text.indexOf(oldStr);
    const updated = text.slice(0, at) + newStr + text.slice(at + oldStr.length);
    const startLine = countLines(text.slice(0, at));
    return {
      updated,
      report: `Edited ${target.shown}. The changed part now reads:\n${snippet(updated, startLine, countLines(newStr))}`,
    };
  });
}

function insert(file: EditedFile, args: EditorArgs): ToolResult {
  const { target } = file;
  const { insert_line: insertLine, new_str: newStr } = args;
  if (insertLine === undefined) throw new EditorError('insert needs insert_line (0 inserts at the top).');
  if (newStr === undefined) throw new EditorError('insert needs new_str (the text to insert).');
  return rewrite(file, (text) => {
    const lines = text.split('\n');
    if (insertLine > lines.length) {
      throw new EditorError(`insert_line ${insertLine} is past the end of ${target.shown} (${lines.length} lines).`);
    }
    const inserted = newStr.replace(/\n$/, '').split('\n');
    const updated = [...lines.slice(0, insertLine), ...inserted, ...lines.slice(insertLine)].join('\n');
    return {
      updated,
      report: `Inserted ${inserted.length} line(s) into ${target.shown}:\n${snippet(updated, insertLine + 1, inserted.length)}`,
    };
  });
}

/** Reads the file's text and writes the edit back through the same open handle. */
function rewrite(
  { root, target, history }: EditedFile,
  edit: (text: string) => { updated: string; report: string },
): ToolResult {
  const file = root.openFile(target.parts, 'update');
  try {
    const text = readText(target, file);
    const { updated, report } = edit(text);
    file.overwrite(Buffer.from(updated));
    remember(history, target, text);
    return toolOutput(report);
  } finally {
    file.close();
  }
}

function undo({ root, target, history }: EditedFile): ToolResult {
  const previous = history.get(target.relative);
  if (!previous || previous.length === 0) throw new EditorError(`There is no edit of ${target.shown} to undo.`);
  const content = previous.at(-1);
  if (content === undefined) {
    root.removeFile(target.parts);
    previous.pop();
    return toolOutput(`Undid the creation of ${target.shown}: the file was removed.`);
  }
  root.writeFile(target.parts, Buffer.from(content));
  previous.pop();
  return toolOutput(`Undid the last edit of ${target.shown}. It now reads:\n${snippet(content, 1, 0)}`);
}

function remember(history: EditHistory, target: WorkspaceTarget, content: string | undefined): void {
  const versions = history.get(target.relative) ?? [];
  versions.push(content);
  if (versions.length > UNDO_DEPTH) versions.shift();
  history.set(target.relative, versions);
}

/** The file's text; binary or invalid UTF-8 is refused, since writing it back as text would corrupt it. */
function readText(target: WorkspaceTarget, file: OpenedFile): string {
  // the size is checked on what was read too: the file may have grown since its stat
  const bytes = file.stat.size > MAX_TEXT_BYTES ? undefined : file.read(MAX_TEXT_BYTES + 1);
  if (!bytes || bytes.length > MAX_TEXT_BYTES) {
    throw new EditorError(
      `${target.shown} is larger than ${MAX_TEXT_BYTES / 1024 / 1024} MB, more than str_replace_editor handles. ` +
        'Use bash (head, sed, grep) for it.',
    );
  }
  if (bytes.subarray(0, 8000).includes(0))
    throw new EditorError(`${target.shown} looks like a binary file; it cannot be viewed or edited as text.`);
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new EditorError(
      `${target.shown} is not valid UTF-8 text; str_replace_editor cannot view or edit it without changing its bytes. ` +
        'Use bash or python to work with it.',
    );
  }
}

function listFolder(root: WorkspaceRoot, parts: readonly string[], depth: number): string[] {
  const lines: string[] = [];
  walkTree(root, parts, {
    levels: depth,
    order: (a, b) => a.name.localeCompare(b.name),
    enter: (entry) => !entry.name.startsWith('.'),
    visit: (entry, level) => {
      if (entry.name.startsWith('.')) return true;
      if (lines.length >= FOLDER_ENTRIES_MAX) return false;
      lines.push(`${'  '.repeat(level)}${entry.name}${entry.stat.isDirectory() ? '/' : ''}`);
      return true;
    },
  });
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
