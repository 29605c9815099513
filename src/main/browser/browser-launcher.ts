import type { Browser, LaunchOptions } from 'playwright';
import type { BrowserSettings } from '../../shared/settings/browser-settings.js';
import { findBrowserExecutable } from './find-browser-executable.js';
import { chromiumSandboxDecision, probeSandboxHost, type SandboxHost } from './chromium-sandbox.js';

/** Flags that keep a headless Chromium quiet: no GPU, no background calls home, no first-run UI. */
const QUIET_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

interface SharedBrowser {
  starting: Promise<Browser>;
  /** contexts opened in it; the browser closes when the last lets go */
  leases: number;
}

/**
 * One browser per launch configuration and artifacts folder. Each session brings its own private folder, so each
 * has its own browser: its downloads are written there, measured against its workspace, and removed with it.
 */
const browsers = new Map<string, SharedBrowser>();

export interface BrowserLease {
  browser: Browser;
  /** let go of the browser; the last lease closes it, so an idle app or a finished CLI run holds no browser */
  release(): Promise<void>;
}

type LaunchSettings = Pick<
  BrowserSettings,
  'headless' | 'executablePath' | 'channel' | 'cdpUrl' | 'proxy' | 'extraArgs' | 'chromiumSandbox' | 'launchTimeoutMs'
>;

export function launchOptionsFor(
  settings: LaunchSettings,
  probeHost: (executablePath: string | undefined) => SandboxHost = probeSandboxHost,
): LaunchOptions {
  const executable = findBrowserExecutable(settings);
  return {
    ...executable,
    headless: settings.headless,
    // an explicit setting wins; otherwise the sandbox is on wherever this OS lets it start
    chromiumSandbox:
      settings.chromiumSandbox === 'auto'
        ? chromiumSandboxDecision(probeHost(executable.executablePath)).enabled
        : settings.chromiumSandbox === 'on',
    args: [...QUIET_ARGS, ...settings.extraArgs],
    // Playwright turns Chromium's pop-up blocker off; on, a page opens one pop-up per click, not hundreds in a loop
    ignoreDefaultArgs: ['--disable-popup-blocking'],
    proxy: settings.proxy,
    timeout: settings.launchTimeoutMs,
  };
}

function configKey(settings: LaunchSettings, artifactsDir: string): string {
  const { headless, executablePath, channel, cdpUrl, proxy, extraArgs, chromiumSandbox } = settings;
  return JSON.stringify({ headless, executablePath, channel, cdpUrl, proxy, extraArgs, chromiumSandbox, artifactsDir });
}

async function startBrowser(settings: LaunchSettings, artifactsDir: string): Promise<Browser> {
  // loaded on first use: Playwright costs about half a second of start-up to every host that never browses
  const { chromium } = await import('playwright');
  if (settings.cdpUrl) {
    try {
      return await chromium.connectOverCDP(settings.cdpUrl, { timeout: settings.launchTimeoutMs, artifactsDir });
    } catch (error) {
      throw new Error(
        `Could not connect to the browser at browser.cdpUrl (${settings.cdpUrl}): ${firstLine(error)}. ` +
          'Start it with --remote-debugging-port, or clear browser.cdpUrl to let the app launch one.',
        { cause: error },
      );
    }
  }
  // downloads (and any other artifact) go to the session's private folder, not a playwright-artifacts-* in /tmp
  const options: LaunchOptions = { ...launchOptionsFor(settings), artifactsDir, downloadsPath: artifactsDir };
  try {
    return await chromium.launch(options);
  } catch (error) {
    const binary = options.executablePath ?? `channel ${options.channel}`;
    // Playwright puts the browser's own complaint in its log, after a generic first line
    if (options.chromiumSandbox && /sandbox/i.test(String(error))) {
      throw new Error(
        `The browser (${binary}) could not start its sandbox on this system. Enable unprivileged user namespaces ` +
          "or install Chromium's setuid chrome-sandbox helper, or set browser.chromiumSandbox to off to run without it.",
        { cause: error },
      );
    }
    throw new Error(
      `The browser (${binary}) did not start: ${firstLine(error)}. ` +
        'Check browser.executablePath / browser.channel, or browser.headless=true when no display is available.',
      { cause: error },
    );
  }
}

/**
 * The browser for these settings writing into `artifactsDir` (a private folder its caller made and removes), launched
 * (or connected) on first use and again after it died.
 */
export async function leaseBrowser(settings: LaunchSettings, artifactsDir: string): Promise<BrowserLease> {
  const key = configKey(settings, artifactsDir);
  let entry = browsers.get(key);
  if (!entry) {
    const created: SharedBrowser = { starting: startBrowser(settings, artifactsDir), leases: 0 };
    browsers.set(key, created);
    const forget = () => {
      if (browsers.get(key) === created) browsers.delete(key);
    };
    created.starting.then((browser) => browser.on('disconnected', forget), forget);
    entry = created;
  }
  const held = entry;
  held.leases++;
  let browser: Browser;
  try {
    browser = await held.starting;
  } catch (error) {
    held.leases--;
    throw error;
  }
  let released = false;
  return {
    browser,
    async release() {
      if (released) return;
      released = true;
      held.leases--;
      if (held.leases > 0 || browsers.get(key) !== held) return;
      browsers.delete(key);
      await browser.close().catch(() => undefined);
    },
  };
}

/** How many browsers this process holds open (for diagnostics). */
export function sharedBrowserCount(): number {
  return browsers.size;
}

/** Close every browser this process launched; connected browsers are only disconnected. */
export async function closeSharedBrowsers(): Promise<void> {
  const all = [...browsers.values()];
  browsers.clear();
  await Promise.all(all.map(async (entry) => (await entry.starting.catch(() => undefined))?.close()));
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
