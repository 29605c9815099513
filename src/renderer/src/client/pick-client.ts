import type { ManusBridge } from '../../../shared/contract/bridge.js';
import { createIpcClient } from './ipc-client.js';
import { createWebClient, takeToken } from './web-client.js';
import type { ManusClient } from './manus-client.js';

declare global {
  interface Window {
    manus?: ManusBridge;
  }
}

export type ClientChoice = { client: ManusClient } | { missingToken: true };

/** Electron when the preload put `window.manus` there; the web server otherwise. */
export function pickClient(): ClientChoice {
  if (window.manus) return { client: createIpcClient(window.manus) };
  const token = takeToken(window.location, window.sessionStorage, window.history);
  if (!token) return { missingToken: true };
  return { client: createWebClient(window.location.origin, token) };
}
