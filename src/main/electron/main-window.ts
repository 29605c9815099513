import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, BrowserWindow } from 'electron';
import { CONTENT_SECURITY_POLICY, DEV_CSP_NONCE_ENV, devServerPolicy, pagePolicy } from '../server/csp.js';
import { loadWindowState, rememberWindowState } from './window-state.js';

const BACKGROUND = '#0f1115';

/** the built page, beside the main process's code */
const RENDERER_PAGE = join(import.meta.dirname, '../renderer/index.html');

/**
 * The electron-vite dev server's URL under `npm run dev`; never in a packaged app, where a URL put in the environment
 * would load with the full bridge (the environment injection the fuses close).
 */
function devServerUrl(): string | undefined {
  return app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL || undefined;
}

/** The renderer's URL: the electron-vite dev server in development, the built file otherwise. */
export function rendererUrl(): string {
  return devServerUrl() ?? pathToFileURL(RENDERER_PAGE).href;
}

/**
 * The page's Content-Security-Policy: under the dev server, the dev policy (its nonce, set by electron.vite.config.ts,
 * allows the React plugin's inline preamble and Vite's injected styles); else the built page's own (its inline first
 * screen allowed by hash), else the base.
 */
export function rendererPolicy(): string {
  if (devServerUrl()) return devServerPolicy(process.env[DEV_CSP_NONCE_ENV]);
  if (!existsSync(RENDERER_PAGE)) return CONTENT_SECURITY_POLICY;
  return pagePolicy(readFileSync(RENDERER_PAGE, 'utf8'));
}

export function createMainWindow(dataDir: string): BrowserWindow {
  const state = loadWindowState(dataDir);
  const window = new BrowserWindow({
    x: state.x,
    y: state.y,
    width: state.width,
    height: state.height,
    minWidth: 720,
    minHeight: 480,
    show: false,
    backgroundColor: BACKGROUND,
    title: 'Manus',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      // the page and the preload live in separate JavaScript worlds: page scripts cannot reach Electron APIs
      contextIsolation: true,
      // the renderer process runs in the OS sandbox: a compromised page cannot touch files or spawn processes
      sandbox: true,
      // no require()/process in the page: hostile markup that ran would still have no Node
      nodeIntegration: false,
      // same-origin policy stays on: the page cannot read other origins' responses
      webSecurity: true,
      // no <webview>: it would be an unrestricted browser inside the app
      webviewTag: false,
      spellcheck: true,
      // Chromium's built-in PDF viewer, for the workspace panel's PDF preview (a blob: frame)
      plugins: true,
    },
  });
  if (state.maximized) window.maximize();
  rememberWindowState(window, dataDir);
  window.once('ready-to-show', () => window.show());
  return window;
}
