import { app, BrowserWindow, dialog } from 'electron';
import { credentialStoreIn } from '../mcp/oauth/credential-store.js';
import { resolveDataDir } from '../store/data-dir.js';
import { openStore } from '../store/store.js';
import { electronSqliteBinding } from './native-sqlite.js';
import { openSecretBox } from '../store/secret-store.js';
import { createAppCore } from '../app/app-core.js';
import { createCoreApi } from '../api/core-api.js';
import { storedSettings } from '../api/settings-access.js';
import { connectIpc } from './ipc.js';
import { createMainWindow, rendererPolicy, rendererUrl } from './main-window.js';
import { installApplicationMenu } from './menu.js';
import { openInSystem } from './open-in-system.js';
import { hardenDefaultSession, hardenWebContents } from './security.js';
import { SafeStorageSecretBox } from './safe-storage-box.js';

/** The desktop app: the core runs here in the main process, over the same data folder as the CLI. */

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

  app
    .whenReady()
    .then(() => {
      hardenDefaultSession(rendererPolicy());
      const dataDir = resolveDataDir();
      const store = openStore(dataDir, { nativeBinding: electronSqliteBinding(), writeEventsInBackground: true });
      // the store the CLI uses too; values the app sealed with safeStorage before are still read, then moved
      const secrets = openSecretBox(dataDir, {
        older: SafeStorageSecretBox.isUsable() ? [new SafeStorageSecretBox()] : [],
      });
      // the same core as the CLI and the web server: live settings, flows, MCP tools per session
      const core = createAppCore({ dataDir, store, secrets, humanAvailable: true });
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
        mainWindow = createMainWindow(dataDir);
        void mainWindow.loadURL(rendererUrl());
      };
      openWindow();
      app.on('activate', () => {
        if (!currentWindow()) openWindow();
      });

      let closing = false;
      app.on('before-quit', (event) => {
        if (closing) return;
        closing = true;
        event.preventDefault();
        disconnect();
        // running sessions are cancelled and their sandboxes released before the store closes
        void api
          .close()
          .then(() => core.close())
          .finally(() => store.close())
          .finally(() => app.exit(0));
      });
    })
    .catch((error: Error) => {
      dialog.showErrorBox('Manus could not start', `${error.message}\n\n${(error as { hint?: string }).hint ?? ''}`);
      app.exit(1);
    });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
