import { app, session, shell, type WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../server/csp.js';
import { isAppUrl, isExternalWebUrl } from './app-url.js';

/** the only permission the UI uses: copy buttons write text to the clipboard */
const ALLOWED_PERMISSIONS = new Set(['clipboard-sanitized-write']);

function openExternally(url: string): void {
  if (isExternalWebUrl(url)) void shell.openExternal(url);
}

/**
 * Session-wide defaults: the CSP header on every response (`policy`: the built page's, see pagePolicy), and no
 * permission prompts (camera, geolocation...).
 */
export function hardenDefaultSession(policy: string = CONTENT_SECURITY_POLICY): void {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] },
    });
  });
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(ALLOWED_PERMISSIONS.has(permission)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission));
}

/** Every web contents stays on the app: navigation and new windows are refused; web links go to the system browser. */
export function hardenWebContents(appUrl: () => string): void {
  app.on('web-contents-created', (_event, contents: WebContents) => {
    contents.on('will-navigate', (event, url) => {
      if (isAppUrl(url, appUrl())) return;
      event.preventDefault();
      openExternally(url);
    });
    contents.on('will-redirect', (event, url) => {
      if (!isAppUrl(url, appUrl())) event.preventDefault();
    });
    contents.setWindowOpenHandler(({ url }) => {
      openExternally(url);
      return { action: 'deny' };
    });
    // <webview> would be a browser inside the app without our restrictions
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}
