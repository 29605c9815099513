import { app, BrowserWindow } from 'electron';
import type { DesktopLog } from './desktop-log.js';

/** how long cleanup (cancelling runs, releasing sandboxes, closing the store) may hold the quit: a hung Docker must not */
export const QUIT_CLEANUP_LIMIT_MS = 10_000;

/**
 * Quit, however asked for (menu, Cmd+Q, last window closed, OS logout): the windows go at once, cleanup runs for at
 * most `limitMs`, then the app exits. A Quit asked again meanwhile waits for the same cleanup instead of skipping it.
 */
export function quitAfterCleanup(cleanup: () => Promise<void>, log: DesktopLog, limitMs = QUIT_CLEANUP_LIMIT_MS): void {
  let cleaning = false;
  app.on('before-quit', (event) => {
    // the exit comes from here once cleanup is over: Electron's own quit would not wait for it
    event.preventDefault();
    if (cleaning) {
      log('quit asked again while cleaning up; still waiting for cleanup (at most the time limit)');
      return;
    }
    cleaning = true;
    for (const window of BrowserWindow.getAllWindows()) window.hide();
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<'timed-out'>((settle) => {
      timer = setTimeout(() => settle('timed-out'), limitMs);
    });
    const work = cleanup().then(
      () => 'done' as const,
      (error: unknown) => {
        log(`cleanup on quit failed: ${error instanceof Error ? error.message : String(error)}`);
        return 'failed' as const;
      },
    );
    void Promise.race([work, limit]).then((outcome) => {
      clearTimeout(timer);
      if (outcome === 'timed-out') log(`cleanup on quit took over ${limitMs / 1000} s; exiting without it`);
      app.exit(0);
    });
  });
}
