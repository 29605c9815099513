import { dialog, type App, type BrowserWindow, type RenderProcessGoneDetails } from 'electron';
import type { DesktopLog } from './desktop-log.js';

/** more renderer deaths than this within CRASH_WINDOW_MS stop the automatic reloads (a page that dies on load) */
const MAX_RELOADS = 3;
const CRASH_WINDOW_MS = 60_000;

const RESPONSE_RELOAD = 1;

/**
 * A window whose page died (out of memory, killed, crashed) is reloaded, logged and the person told, instead of
 * staying a dead white rectangle; one that stops responding offers to be reloaded.
 */
export function recoverWindow(window: BrowserWindow, log: DesktopLog): void {
  const deaths: number[] = [];
  window.webContents.on('render-process-gone', (_event, details: RenderProcessGoneDetails) => {
    log(`the window's page ended: ${details.reason} (exit code ${details.exitCode})`);
    if (details.reason === 'clean-exit' || window.isDestroyed()) return;
    const now = Date.now();
    deaths.push(now);
    while (deaths.length > 0 && deaths[0] < now - CRASH_WINDOW_MS) deaths.shift();
    if (deaths.length > MAX_RELOADS) {
      log('the page keeps ending; it is not reloaded again');
      dialog.showErrorBox(
        'Manus: the window keeps stopping',
        `Its page ended ${deaths.length} times in a minute (last: ${details.reason}). Running sessions go on; ` +
          'restart Manus to open the window again. Details are in the desktop log (logs/desktop.log in the data folder).',
      );
      return;
    }
    window.webContents.reload();
    void dialog.showMessageBox(window, {
      type: 'warning',
      message: 'The window stopped and was reloaded.',
      detail:
        `Its page ended (${details.reason === 'oom' ? 'out of memory' : details.reason}). Running sessions were not ` +
        'affected; what you were typing may be lost.',
    });
  });
  window.on('unresponsive', () => {
    log('the window stopped responding');
    void dialog
      .showMessageBox(window, {
        type: 'warning',
        message: 'The window is not responding.',
        detail: 'You can wait for it, or reload it (running sessions go on).',
        buttons: ['Wait', 'Reload'],
        defaultId: 0,
        cancelId: 0,
      })
      .then(({ response }) => {
        if (response !== RESPONSE_RELOAD || window.isDestroyed()) return;
        log('the unresponsive window is reloaded');
        window.webContents.forcefullyCrashRenderer();
        window.webContents.reload();
      });
  });
  window.on('responsive', () => log('the window responds again'));
}

/** Helper processes (GPU, network, utility) that end are logged; Chromium restarts the ones it needs. */
export function logChildProcessDeaths(app: App, log: DesktopLog): void {
  app.on('child-process-gone', (_event, details) => {
    if (details.reason === 'clean-exit') return;
    const name = details.name ?? details.serviceName ?? details.type;
    log(`a helper process ended: ${name} (${details.type}), ${details.reason}, exit code ${details.exitCode}`);
  });
}
