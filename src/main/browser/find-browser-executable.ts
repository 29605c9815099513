import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { BrowserSettings } from '../../shared/settings/browser-settings.js';

/** How Playwright should start the browser: a binary path, or a channel it knows how to find. */
export type BrowserExecutable =
  { executablePath: string; channel?: undefined } | { channel: string; executablePath?: undefined };

export class BrowserNotFoundError extends Error {
  override readonly name = 'BrowserNotFoundError';
}

const LINUX_NAMES = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'microsoft-edge',
  'microsoft-edge-stable',
];
const LINUX_PATHS = ['/snap/bin/chromium', '/opt/google/chrome/chrome', '/opt/microsoft/msedge/msedge'];

const MAC_APPS = [
  'Google Chrome.app/Contents/MacOS/Google Chrome',
  'Chromium.app/Contents/MacOS/Chromium',
  'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
];

const WINDOWS_SUFFIXES = [
  'Google\\Chrome\\Application\\chrome.exe',
  'Microsoft\\Edge\\Application\\msedge.exe',
  'Chromium\\Application\\chrome.exe',
];

/** Places a Chromium-family browser is usually installed on this OS, most common first. */
export function knownBrowserLocations(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  if (platform === 'darwin') {
    const home = env.HOME ?? '';
    return MAC_APPS.flatMap((app) => [join('/Applications', app), join(home, 'Applications', app)]);
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter(
      (root): root is string => !!root,
    );
    return roots.flatMap((root) => WINDOWS_SUFFIXES.map((suffix) => `${root}\\${suffix}`));
  }
  const pathDirs = (env.PATH ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter).filter(Boolean);
  return [...LINUX_NAMES.flatMap((name) => pathDirs.map((dir) => join(dir, name))), ...LINUX_PATHS];
}

const FIX_HINT =
  'Install Google Chrome, Chromium or Microsoft Edge (on Debian/Ubuntu: `sudo apt install chromium`), ' +
  'or set browser.executablePath in Settings to the browser binary, browser.channel to "chrome" or "msedge", ' +
  'or browser.cdpUrl to connect to a browser already running with --remote-debugging-port.';

/** The configured path or channel, else the first browser found in the usual places; throws naming the fix. */
export function findBrowserExecutable(
  settings: Pick<BrowserSettings, 'executablePath' | 'channel'>,
  locations: string[] = knownBrowserLocations(),
): BrowserExecutable {
  if (settings.executablePath) {
    if (!existsSync(settings.executablePath)) {
      throw new BrowserNotFoundError(
        `browser.executablePath is set to ${settings.executablePath}, but no file is there. ` +
          'Point it at a Chrome, Chromium or Edge binary, or clear it to let the app find one.',
      );
    }
    return { executablePath: settings.executablePath };
  }
  if (settings.channel) return { channel: settings.channel };
  const found = locations.find((location) => existsSync(location));
  if (found) return { executablePath: found };
  throw new BrowserNotFoundError(`No Chrome, Chromium or Edge browser was found. ${FIX_HINT}`);
}
