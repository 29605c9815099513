import { describe, expect, it, vi } from 'vitest';
import { askBeforeClosingLiveRuns } from '../../src/main/electron/close-prompt.js';
import { quitAfterCleanup } from '../../src/main/electron/quit-flow.js';
// the recording stand-in for Electron (tests/electron/stub), the same one the built main process runs against
import { BrowserWindow, app, messageBoxAnswers } from './stub/electron.mjs';
import { recorded } from './stub/record.mjs';

vi.mock('electron', () => import('./stub/electron.mjs'));

const callsTo = (name: string) => recorded.filter((entry: { call: string }) => entry.call === name);
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a quit whose cleanup hangs (a Docker engine that never answers)', () => {
  it('hides the windows at once and exits when the time limit passes, logging why', async () => {
    const window = new BrowserWindow({ show: true });
    const exit = vi.spyOn(app, 'exit').mockImplementation(() => undefined);
    const log: string[] = [];
    const cleanup = vi.fn(() => new Promise<void>(() => undefined));
    quitAfterCleanup(cleanup, (line) => log.push(line), 50);
    app.quit();
    expect(window.isVisible()).toBe(false);
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(exit).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(exit).toHaveBeenCalledWith(0));
    expect(log).toEqual(['cleanup on quit took over 0.05 s; exiting without it']);
    app.removeAllListeners('before-quit');
    exit.mockRestore();
    window.destroy();
  });
});

describe('closing the window while sessions run (Windows, Linux)', () => {
  it('asks first; Cancel keeps the window and its runs, "Stop and Quit" closes it', async () => {
    const window = new BrowserWindow({});
    askBeforeClosingLiveRuns(window as never, () => 2, 'linux');
    messageBoxAnswers.push(1);
    window.close();
    await settled();
    expect(window.isDestroyed()).toBe(false);
    const [, question] = callsTo('dialog.showMessageBox').at(-1)!.args as [
      unknown,
      { message: string; buttons: string[] },
    ];
    expect(question).toMatchObject({ message: '2 sessions are still running.', buttons: ['Stop and Quit', 'Cancel'] });

    messageBoxAnswers.push(0);
    window.close();
    await vi.waitFor(() => expect(window.isDestroyed()).toBe(true));
  });

  it('closes without a question when nothing runs, and on macOS (where the app stays open)', () => {
    const idle = new BrowserWindow({});
    askBeforeClosingLiveRuns(idle as never, () => 0, 'linux');
    idle.close();
    expect(idle.isDestroyed()).toBe(true);
    const mac = new BrowserWindow({});
    askBeforeClosingLiveRuns(mac as never, () => 3, 'darwin');
    const asked = callsTo('dialog.showMessageBox').length;
    mac.close();
    expect(mac.isDestroyed()).toBe(true);
    expect(callsTo('dialog.showMessageBox')).toHaveLength(asked);
  });
});
