import { app, dialog, session, type BrowserWindow } from 'electron';
import { credentialStoreIn } from '../mcp/oauth/credential-store.js';
import { resolveDataDir } from '../store/data-dir.js';
import { openStore } from '../store/store.js';
import { electronSqliteBinding } from './native-sqlite.js';
import { openSecretBox } from '../store/secret-store.js';
import { createAppCore } from '../app/app-core.js';
import { createCoreApi } from '../api/core-api.js';
import { storedSettings } from '../api/settings-access.js';
import { APP_ID } from './app-identity.js';
import { askBeforeClosingLiveRuns } from './close-prompt.js';
import { keepChromiumProfileIn } from './chromium-profile.js';
import { attachContextMenu } from './context-menu.js';
import { desktopLog } from './desktop-log.js';
import { connectIpc } from './ipc.js';
import { LazySecretBox } from './lazy-secret-box.js';
import { createMainWindow, rendererPolicy, rendererUrl } from './main-window.js';
import { installApplicationMenu } from './menu.js';
import { openInSystem } from './open-in-system.js';
import { quitAfterCleanup } from './quit-flow.js';
import { hardenDefaultSession, hardenWebContents } from './security.js';
import { SafeStorageSecretBox } from './safe-storage-box.js';
import { SpellcheckDownloads } from './spellcheck.js';
import { logChildProcessDeaths, recoverWindow } from './window-recovery.js';

/** The desktop app: the core runs here in the main process, over the same data folder as the CLI. */

function startupFailed(error: Error): void {
  dialog.showErrorBox('Manus could not start', `${error.message}\n\n${(error as { hint?: string }).hint ?? ''}`);
  app.exit(1);
}

// a second launch focuses the running window instead of opening the same database twice
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let mainWindow: BrowserWindow | undefined;
  const currentWindow = () => (mainWindow && !mainWindow.isDestroyed() ? mainWindow : undefined);

  app.on('second-instance', () => {
    const window = currentWindow();
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });

  hardenWebContents(rendererUrl);
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID);

  let dataDir: string | undefined;
  try {
    dataDir = resolveDataDir();
  } catch (error) {
    void app.whenReady().then(() => startupFailed(error as Error));
  }
  // Chromium opens its profile at 'ready': it must be placed before
  const profileDir = dataDir === undefined ? undefined : keepChromiumProfileIn(dataDir);

  app
    .whenReady()
    .then(() => {
      if (dataDir === undefined || profileDir === undefined) return;
      const log = desktopLog(dataDir);
      logChildProcessDeaths(app, log);
      hardenDefaultSession(rendererPolicy());
      const spelling = new SpellcheckDownloads(session.defaultSession, profileDir);
      spelling.apply();
      const store = openStore(dataDir, { nativeBinding: electronSqliteBinding(), writeEventsInBackground: true });
      // the store the CLI uses too, opened when a secret is first needed (its keychain prompt comes with the window
      // shown); values the app sealed with safeStorage before are still read, then moved
      const folder = dataDir;
      const secrets = new LazySecretBox(() =>
        openSecretBox(folder, { older: SafeStorageSecretBox.isUsable() ? [new SafeStorageSecretBox()] : [] }),
      );
      // the same core as the CLI and the web server: live settings, flows, MCP tools per session
      const core = createAppCore({ dataDir, store, secrets, humanAvailable: true, hearOtherProcesses: true });
      const api = createCoreApi({
        sessions: core.service,
        store,
        dataDir,
        settings: storedSettings(store, secrets),
        runSettings: core.runSettings,
        mcpCredentials: credentialStoreIn(dataDir, secrets),
        shell: 'electron',
        onUiLanguage: (language) => installApplicationMenu(currentWindow, language),
        openPath: openInSystem(currentWindow),
        // the core checks what comes back like a typed path (exists, a folder, writable, not the data folder)
        pickFolder: async () => {
          const window = currentWindow();
          const options = {
            properties: ['openDirectory', 'createDirectory'] as Array<'openDirectory' | 'createDirectory'>,
          };
          const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
          return picked.canceled ? undefined : picked.filePaths[0];
        },
        version: app.getVersion(),
      });
      const disconnect = connectIpc(api, currentWindow, rendererUrl);
      installApplicationMenu(currentWindow);

      const openWindow = () => {
        const window = createMainWindow(folder);
        mainWindow = window;
        recoverWindow(window, log);
        askBeforeClosingLiveRuns(window, () => core.service.runningSessionIds().length);
        attachContextMenu(window, spelling);
        void window.loadURL(rendererUrl());
      };
      openWindow();
      app.on('activate', () => {
        if (!currentWindow()) openWindow();
      });

      // running sessions are cancelled and their sandboxes released before the store closes
      quitAfterCleanup(async () => {
        disconnect();
        try {
          await api.close();
          await core.close();
        } finally {
          store.close();
        }
      }, log);
    })
    .catch(startupFailed);

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
