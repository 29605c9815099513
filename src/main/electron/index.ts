import { app, BrowserWindow, dialog } from 'electron';
import { resolveDataDir } from '../store/data-dir.js';
import { openStore } from '../store/store.js';
import { FileKeySecretBox, type SecretBox } from '../store/secrets.js';
import { SessionService } from '../session/session-service.js';
import { createLlm } from '../llm/client.js';
import { createCoreApi } from '../api/core-api.js';
import { storedSettings } from '../api/settings-access.js';
import { applyLlmOverrides, llmOverridesFromEnv } from '../config/llm-overrides.js';
import { connectIpc } from './ipc.js';
import { createMainWindow, rendererUrl } from './main-window.js';
import { installApplicationMenu } from './menu.js';
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
      hardenDefaultSession();
      const dataDir = resolveDataDir();
      const store = openStore(dataDir);
      const box: SecretBox = SafeStorageSecretBox.isUsable()
        ? new SafeStorageSecretBox()
        : FileKeySecretBox.inDataDir(dataDir);
      const settings = storedSettings(store, box);
      const sessions = new SessionService({
        store,
        dataDir,
        // read at every turn, so changes in Settings apply to the next message; env overrides as in the CLI
        settings: () => applyLlmOverrides(settings.read(), llmOverridesFromEnv(), {}),
        llmFactory: createLlm,
        humanAvailable: true,
      });
      const api = createCoreApi({ sessions, store, dataDir, settings, shell: 'electron', version: app.getVersion() });
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
        void sessions
          .close()
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
