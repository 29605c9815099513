import { chromium, type Browser, type LaunchOptions } from 'playwright';
import type { BrowserSettings } from './browser-settings.js';
import { findBrowserExecutable } from './find-browser-executable.js';

/** Flags that keep a headless Chromium quiet: no GPU, no background calls home, no first-run UI. */
const QUIET_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** One browser per process and launch configuration; sessions get their own contexts inside it. */
const browsers = new Map<string, Promise<Browser>>();

type LaunchSettings = Pick<
  BrowserSettings,
  'headless' | 'executablePath' | 'channel' | 'cdpUrl' | 'proxy' | 'extraArgs' | 'chromiumSandbox' | 'launchTimeoutMs'
>;

export function launchOptionsFor(settings: LaunchSettings): LaunchOptions {
  const executable = findBrowserExecutable(settings);
  return {
    ...executable,
    headless: settings.headless,
    chromiumSandbox: settings.chromiumSandbox,
    args: [...QUIET_ARGS, ...settings.extraArgs],
    proxy: settings.proxy,
    timeout: settings.launchTimeoutMs,
  };
}

function configKey(settings: LaunchSettings): string {
  const { headless, executablePath, channel, cdpUrl, proxy, extraArgs, chromiumSandbox } = settings;
  return JSON.stringify({ headless, executablePath, channel, cdpUrl, proxy, extraArgs, chromiumSandbox });
}

async function startBrowser(settings: LaunchSettings): Promise<Browser> {
  if (settings.cdpUrl) {
    try {
      return await chromium.connectOverCDP(settings.cdpUrl, { timeout: settings.launchTimeoutMs });
    } catch (error) {
      throw new Error(
        `Could not connect to the browser at browser.cdpUrl (${settings.cdpUrl}): ${firstLine(error)}. ` +
          'Start it with --remote-debugging-port, or clear browser.cdpUrl to let the app launch one.',
        { cause: error },
      );
    }
  }
  const options = launchOptionsFor(settings);
  try {
    return await chromium.launch(options);
  } catch (error) {
    const binary = options.executablePath ?? `channel ${options.channel}`;
    throw new Error(
      `The browser (${binary}) did not start: ${firstLine(error)}. ` +
        'Check browser.executablePath / browser.channel, or browser.headless=true when no display is available.',
      { cause: error },
    );
  }
}

/** The shared browser for these settings, launched (or connected) on first use and again after it died. */
export function sharedBrowser(settings: LaunchSettings): Promise<Browser> {
  const key = configKey(settings);
  const existing = browsers.get(key);
  if (existing) return existing;
  const starting = startBrowser(settings).then((browser) => {
    browser.on('disconnected', () => {
      if (browsers.get(key) === starting) browsers.delete(key);
    });
    return browser;
  });
  browsers.set(key, starting);
  starting.catch(() => {
    if (browsers.get(key) === starting) browsers.delete(key);
  });
  return starting;
}

/** Close every browser this process launched; connected browsers are only disconnected. */
export async function closeSharedBrowsers(): Promise<void> {
  const all = [...browsers.values()];
  browsers.clear();
  await Promise.all(all.map(async (starting) => (await starting.catch(() => undefined))?.close()));
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
