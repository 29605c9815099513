import { execFile } from 'node:child_process';
import { lstat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { promisify } from 'node:util';
import { dialog, shell, type BrowserWindow, type MessageBoxOptions } from 'electron';
import { downloadMark, openRisk, type DownloadMark } from './open-risk.js';

const run = promisify(execFile);

/** the buttons of the warning, in order; the first (showing the file) is the default */
const SHOW_IN_FOLDER = 0;
const OPEN_ANYWAY = 1;
const CANCEL = 2;

async function applyMark(mark: DownloadMark): Promise<void> {
  if (mark.kind === 'xattr') await run(mark.command, mark.args);
  else await writeFile(mark.streamPath, mark.content);
}

function riskWarning(path: string): MessageBoxOptions {
  return {
    type: 'warning',
    buttons: ['Show in Folder', 'Open Anyway', 'Cancel'],
    defaultId: SHOW_IN_FOLDER,
    cancelId: CANCEL,
    noLink: true,
    message: `"${basename(path)}" is a program or script: opening it runs it on this computer.`,
    detail:
      'It was written in the session workspace, possibly by the agent following instructions from a web page or a ' +
      'file it read. Opened, it runs outside the sandbox with your permissions. Open it only if you know what it does.',
  };
}

/**
 * "Open in system" for a workspace path: marked as downloaded first (so Gatekeeper or SmartScreen still warn), then
 * opened with its default application, unless it would run, in which case the person chooses after a warning.
 */
export function openInSystem(window: () => BrowserWindow | undefined): (path: string) => Promise<void> {
  return async (path) => {
    const stat = await lstat(path);
    const mark = downloadMark(path, stat.isDirectory(), process.platform);
    // a file that cannot be marked (a read-only folder, FAT without streams) is still guarded by the warning below
    if (mark) await applyMark(mark).catch(() => undefined);
    if (openRisk(path, stat, process.platform).kind === 'confirm') {
      const parent = window();
      const options = riskWarning(path);
      const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
      if (response === SHOW_IN_FOLDER) shell.showItemInFolder(path);
      if (response !== OPEN_ANYWAY) return;
    }
    const failure = await shell.openPath(path);
    if (failure) throw new Error(failure);
  };
}
