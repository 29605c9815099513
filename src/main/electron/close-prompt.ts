import { dialog, type BrowserWindow } from 'electron';

const STOP_AND_QUIT = 0;

/**
 * On Windows and Linux closing the last window quits, which stops every running session: while some run, the person
 * is asked first. (On macOS the app stays open without a window, and the runs go on.)
 */
export function askBeforeClosingLiveRuns(
  window: BrowserWindow,
  runningSessions: () => number,
  platform: NodeJS.Platform = process.platform,
): void {
  if (platform === 'darwin') return;
  let confirmed = false;
  window.on('close', (event) => {
    const running = runningSessions();
    if (confirmed || running === 0) return;
    event.preventDefault();
    void dialog
      .showMessageBox(window, {
        type: 'question',
        message: running === 1 ? 'A session is still running.' : `${running} sessions are still running.`,
        detail: 'Closing the window quits Manus and stops them. Their work so far is kept.',
        buttons: ['Stop and Quit', 'Cancel'],
        defaultId: 1,
        cancelId: 1,
      })
      .then(({ response }) => {
        if (response !== STOP_AND_QUIT || window.isDestroyed()) return;
        confirmed = true;
        window.close();
      });
  });
}
