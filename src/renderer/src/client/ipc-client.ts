import type { ManusBridge } from '../../../shared/contract/bridge.js';
import { unwrap, type ManusClient } from './manus-client.js';

/** The client over Electron IPC, through the `window.manus` bridge the preload exposes. */
export function createIpcClient(bridge: ManusBridge): ManusClient {
  return {
    transport: 'electron',
    call: async (name, request) => unwrap(await bridge.invoke(name, request)),
    onEvent: (listener) => bridge.onEvent(listener),
    onCommand: (listener) => bridge.onCommand(listener),
    // IPC does not drop: the window and the core live and die together
    onConnection: () => () => undefined,
  };
}
