// A stand-in for the `electron` module of Electron 41 (names and signatures as in node_modules/electron/electron.d.ts),
// for running the built main process (out/main/index.js) under Node. It records every call to the test (record.mjs)
// and lets the test emit the events Electron would (commands.mjs).
import { EventEmitter } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { handleOf, record } from './record.mjs';

/** an Electron event: `preventDefault` is what handlers use to stop the default action */
export function electronEvent(extra = {}) {
  const event = { defaultPrevented: false, ...extra };
  event.preventDefault = () => {
    event.defaultPrevented = true;
  };
  return event;
}

const paths = new Map([
  ['home', process.env.HOME ?? tmpdir()],
  ['appData', join(tmpdir(), 'electron-stub-appdata')],
  ['userData', join(tmpdir(), 'electron-stub-appdata', 'manus-desktop')],
  ['sessionData', join(tmpdir(), 'electron-stub-appdata', 'manus-desktop')],
  ['logs', join(tmpdir(), 'electron-stub-appdata', 'manus-desktop', 'logs')],
  ['temp', tmpdir()],
]);

class App extends EventEmitter {
  isPackaged = process.env.ELECTRON_STUB_PACKAGED === '1';
  name = 'manus-desktop';
  commandLine = {
    appendSwitch: (...args) => record('app.commandLine.appendSwitch', args),
    hasSwitch: (name) => {
      record('app.commandLine.hasSwitch', [name]);
      return process.argv.includes(`--${name}`);
    },
  };
  #ready = false;
  #quitting = false;
  #readyPromise = undefined;

  /** 'ready' comes once the main script's first turn is over, as in Electron (not while its imports still load) */
  #becomeReady() {
    this.#readyPromise ??= new Promise((resolve) =>
      setImmediate(() => {
        this.#ready = true;
        record('app.ready');
        this.emit('ready', electronEvent(), {});
        resolve();
      }),
    );
    return this.#readyPromise;
  }

  whenReady() {
    return this.#becomeReady();
  }
  isReady() {
    return this.#ready;
  }
  requestSingleInstanceLock() {
    record('app.requestSingleInstanceLock');
    return process.env.ELECTRON_STUB_SECOND_INSTANCE !== '1';
  }
  getVersion() {
    return '0.1.0';
  }
  getAppPath() {
    return process.cwd();
  }
  getPath(name) {
    record('app.getPath', [name]);
    return paths.get(name) ?? join(tmpdir(), `electron-stub-${name}`);
  }
  setPath(name, path) {
    record('app.setPath', [name, path]);
    paths.set(name, path);
  }
  getPreferredSystemLanguages() {
    return ['en-US'];
  }
  setAppUserModelId(id) {
    record('app.setAppUserModelId', [id]);
  }
  setAboutPanelOptions(options) {
    record('app.setAboutPanelOptions', [options]);
  }
  /** as Electron: before-quit, then every window closed (one refusing cancels the quit), then will-quit, then exit */
  quit() {
    record('app.quit');
    if (this.#quitting) return;
    const beforeQuit = electronEvent();
    this.emit('before-quit', beforeQuit);
    if (beforeQuit.defaultPrevented) return;
    this.#quitting = true;
    for (const window of BrowserWindow.getAllWindows()) {
      window.close();
      if (!window.isDestroyed()) {
        this.#quitting = false;
        return;
      }
    }
    const willQuit = electronEvent();
    this.emit('will-quit', willQuit);
    if (willQuit.defaultPrevented) {
      this.#quitting = false;
      return;
    }
    this.exit(0);
  }
  exit(code = 0) {
    record('app.exit', [code], () => process.exit(code));
  }
  get isQuitting() {
    return this.#quitting;
  }
}

export const app = new App();

class WebRequest {
  onHeadersReceived(...args) {
    record('session.webRequest.onHeadersReceived', args);
    this.headersListener = args.at(-1);
  }
}

class Session extends EventEmitter {
  webRequest = new WebRequest();
  setPermissionRequestHandler(handler) {
    record('session.setPermissionRequestHandler', [handler]);
  }
  setPermissionCheckHandler(handler) {
    record('session.setPermissionCheckHandler', [handler]);
  }
  setSpellCheckerDictionaryDownloadURL(url) {
    record('session.setSpellCheckerDictionaryDownloadURL', [url]);
  }
  setSpellCheckerEnabled(enabled) {
    record('session.setSpellCheckerEnabled', [enabled]);
  }
  isSpellCheckerEnabled() {
    return true;
  }
  addWordToSpellCheckerDictionary(word) {
    record('session.addWordToSpellCheckerDictionary', [word]);
    return true;
  }
}

export const session = { defaultSession: new Session() };

class WebContents extends EventEmitter {
  session = session.defaultSession;
  #destroyed = false;
  constructor() {
    super();
    handleOf(this, 'webContents');
  }
  loadURL(url) {
    record('webContents.loadURL', [this, url]);
    this.url = url;
    return Promise.resolve();
  }
  getURL() {
    return this.url ?? '';
  }
  send(channel, ...args) {
    record('webContents.send', [this, channel, ...args]);
  }
  reload() {
    record('webContents.reload', [this]);
  }
  forcefullyCrashRenderer() {
    record('webContents.forcefullyCrashRenderer', [this]);
  }
  setWindowOpenHandler(handler) {
    record('webContents.setWindowOpenHandler', [this, handler]);
  }
  replaceMisspelling(word) {
    record('webContents.replaceMisspelling', [this, word]);
  }
  isDestroyed() {
    return this.#destroyed;
  }
  destroy() {
    this.#destroyed = true;
  }
  isCrashed() {
    return false;
  }
}

const windows = [];

export class BrowserWindow extends EventEmitter {
  static getAllWindows() {
    return windows.filter((window) => !window.isDestroyed());
  }
  static getFocusedWindow() {
    return BrowserWindow.getAllWindows()[0] ?? null;
  }
  #destroyed = false;
  #visible = false;
  #minimized = false;
  #maximized = false;
  constructor(options = {}) {
    super();
    handleOf(this, 'window');
    this.webContents = new WebContents();
    this.options = options;
    windows.push(this);
    record('new BrowserWindow', [this, options]);
    app.emit('web-contents-created', electronEvent(), this.webContents);
    app.emit('browser-window-created', electronEvent(), this);
  }
  loadURL(url) {
    record('window.loadURL', [this, url]);
    return this.webContents.loadURL(url);
  }
  show() {
    record('window.show', [this]);
    this.#visible = true;
    this.emit('show');
  }
  hide() {
    record('window.hide', [this]);
    this.#visible = false;
    this.emit('hide');
  }
  isVisible() {
    return this.#visible;
  }
  focus() {
    record('window.focus', [this]);
  }
  restore() {
    this.#minimized = false;
  }
  isMinimized() {
    return this.#minimized;
  }
  maximize() {
    this.#maximized = true;
  }
  isMaximized() {
    return this.#maximized;
  }
  getNormalBounds() {
    return { x: 0, y: 0, width: this.options.width ?? 800, height: this.options.height ?? 600 };
  }
  isDestroyed() {
    return this.#destroyed;
  }
  /** as Electron: 'close' (a handler may prevent it), then the window goes and 'closed' follows */
  close() {
    record('window.close', [this]);
    if (this.#destroyed) return;
    const event = electronEvent();
    this.emit('close', event);
    if (event.defaultPrevented) return;
    this.destroy();
  }
  destroy() {
    if (this.#destroyed) return;
    record('window.destroy', [this]);
    this.#destroyed = true;
    this.webContents.destroy();
    this.emit('closed');
    if (BrowserWindow.getAllWindows().length === 0 && !app.isQuitting) app.emit('window-all-closed', electronEvent());
  }
}

/** the menus that popped up (context menus), newest last, for the test to click in */
export const popups = [];

export class Menu {
  constructor(template = []) {
    this.items = template;
  }
  static buildFromTemplate(template) {
    return new Menu(template);
  }
  static setApplicationMenu(menu) {
    record('Menu.setApplicationMenu', [menu ? menu.items : null]);
  }
  popup(options = {}) {
    record('menu.popup', [this.items, options]);
    popups.push(this.items);
  }
}

export class MenuItem {
  constructor(options) {
    Object.assign(this, options);
  }
}

/** the answers showMessageBox gives, in order; the test queues them (commands.mjs) */
export const messageBoxAnswers = [];

export const dialog = {
  showMessageBox(...args) {
    record('dialog.showMessageBox', args);
    const response = messageBoxAnswers.length > 0 ? messageBoxAnswers.shift() : 0;
    return Promise.resolve({ response, checkboxChecked: false });
  },
  showMessageBoxSync(...args) {
    record('dialog.showMessageBoxSync', args);
    return messageBoxAnswers.length > 0 ? messageBoxAnswers.shift() : 0;
  },
  showErrorBox(title, content) {
    record('dialog.showErrorBox', [title, content]);
  },
  showOpenDialog(...args) {
    record('dialog.showOpenDialog', args);
    return Promise.resolve({ canceled: true, filePaths: [] });
  },
};

export const shell = {
  openPath(path) {
    record('shell.openPath', [path]);
    return Promise.resolve('');
  },
  showItemInFolder(path) {
    record('shell.showItemInFolder', [path]);
  },
  openExternal(url) {
    record('shell.openExternal', [url]);
    return Promise.resolve();
  },
};

export const safeStorage = {
  isEncryptionAvailable() {
    record('safeStorage.isEncryptionAvailable');
    return true;
  },
  getSelectedStorageBackend() {
    record('safeStorage.getSelectedStorageBackend');
    return 'gnome_libsecret';
  },
  encryptString(plain) {
    record('safeStorage.encryptString');
    return Buffer.from(plain, 'utf8');
  },
  decryptString(cipher) {
    record('safeStorage.decryptString');
    return cipher.toString('utf8');
  },
};

class IpcMain extends EventEmitter {
  handlers = new Map();
  handle(channel, listener) {
    record('ipcMain.handle', [channel]);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel) {
    record('ipcMain.removeHandler', [channel]);
    this.handlers.delete(channel);
  }
}

export const ipcMain = new IpcMain();

export const screen = {
  getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
};

export const crashReporter = {
  start(options) {
    record('crashReporter.start', [options]);
  },
};

export default {
  app,
  BrowserWindow,
  Menu,
  MenuItem,
  dialog,
  shell,
  safeStorage,
  ipcMain,
  screen,
  session,
  crashReporter,
};
