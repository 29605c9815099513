import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, isRequestName } from '../shared/contract/names.js';
import { IPC_COMMAND_CHANNEL, isUiCommand, type UiCommand } from '../shared/contract/ui-commands.js';
import type { ManusBridge } from '../shared/contract/bridge.js';
import type { CoreEvent } from '../shared/events.js';

// only the contract crosses: the page never sees ipcRenderer itself, so it cannot reach other channels
const bridge: ManusBridge = {
  invoke: (name, payload) =>
    isRequestName(name)
      ? ipcRenderer.invoke(IPC_INVOKE_CHANNEL, name, payload)
      : Promise.resolve({
          ok: false,
          error: { code: 'unknown_request', message: `No request named ${String(name)}.` },
        }),
  onEvent: (listener) => {
    const forward = (_event: IpcRendererEvent, coreEvent: CoreEvent) => listener(coreEvent);
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward);
    return () => ipcRenderer.off(IPC_EVENT_CHANNEL, forward);
  },
  onCommand: (listener) => {
    const forward = (_event: IpcRendererEvent, command: UiCommand) => {
      if (isUiCommand(command)) listener(command);
    };
    ipcRenderer.on(IPC_COMMAND_CHANNEL, forward);
    return () => ipcRenderer.off(IPC_COMMAND_CHANNEL, forward);
  },
};

contextBridge.exposeInMainWorld('manus', bridge);
