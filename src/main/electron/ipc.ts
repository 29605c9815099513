import { ipcMain, type BrowserWindow } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/contract/names.js';
import type { CoreApi } from '../api/core-api.js';
import { isAppUrl } from './app-url.js';

/** Carries the contract over IPC: requests from our own page only, every core event to the window. */
export function connectIpc(api: CoreApi, window: () => BrowserWindow | undefined, appUrl: () => string): () => void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, (event, name: unknown, payload: unknown) => {
    // a frame that is not the app (an injected iframe) gets nothing
    if (!event.senderFrame || !isAppUrl(event.senderFrame.url, appUrl())) {
      return { ok: false, error: { code: 'forbidden', message: 'Requests come from the app page only.' } };
    }
    return api.invoke(name, payload);
  });
  const unsubscribe = api.onEvent((coreEvent) => {
    const target = window();
    if (target && !target.isDestroyed()) target.webContents.send(IPC_EVENT_CHANNEL, coreEvent);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
  };
}
