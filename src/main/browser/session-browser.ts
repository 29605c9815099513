import type { BrowserSettings } from '../../shared/settings/browser-settings.js';
import { leaseBrowser, type BrowserLease } from './browser-launcher.js';
import { BrowserSession } from './browser-session.js';
import { makeBrowserPrivateFolder } from './browser-private-folder.js';
import { startEgressGuard, type EgressGuard } from './egress-guard.js';
import { hostOf, nonPublicRange } from '../net/address-policy.js';
import { systemNetwork, type EgressNetwork } from '../net/egress-network.js';

/**
 * WebRTC sends UDP (STUN, ICE checks) to any address a page names, past every HTTP proxy, and Chrome takes its
 * proxy-only policy from profile preferences Playwright cannot set: guarded pages get no peer connections.
 * Init scripts run in every frame and popup before the page's own scripts.
 */
const WITHOUT_WEBRTC = `for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection']) delete globalThis[name];`;

/** A browser on another machine cannot reach the guard on this one's loopback: every page would fail obscurely. */
function refuseRemoteCdp(cdpUrl: string | undefined): void {
  if (!cdpUrl || !URL.canParse(cdpUrl)) return;
  const host = hostOf(new URL(cdpUrl));
  if (host === 'localhost' || nonPublicRange(host) === 'loopback') return;
  throw new Error(
    `browser.cdpUrl connects to a browser on another machine (${host}), which cannot reach this app's network guard. ` +
      'Use a browser on this machine, or set browser.allowPrivateNetwork to let that browser go where its own network goes.',
  );
}

export interface SessionBrowserOptions {
  settings: BrowserSettings;
  /** host path of the session workspace (downloads land there) */
  workspace: string;
  /** the workspace quota in MB (0: none), read at each download: downloads count against it */
  workspaceQuotaMb: () => number;
  /** the data folder: the browser's private folder is made in it */
  dataDir?: string;
  /** a resolver or connector for the egress guard to use instead of the system's (tests give names addresses) */
  egressNetwork?: Partial<EgressNetwork>;
}

/** The session's browser context (opened at its first browser action, closed with the session). */
export async function openSessionBrowser(options: SessionBrowserOptions): Promise<BrowserSession> {
  const { settings, workspace } = options;
  if (!settings.allowPrivateNetwork) refuseRemoteCdp(settings.cdpUrl);
  const privateFolder = await makeBrowserPrivateFolder(options.dataDir);
  const { artifactsDir } = privateFolder;
  let guard: EgressGuard | undefined;
  try {
    // without the rule there is nothing to guard: the browser goes out as it always did (or via browser.proxy)
    guard = settings.allowPrivateNetwork
      ? undefined
      : await startEgressGuard({ ...systemNetwork(settings.proxy), ...options.egressNetwork });
  } catch (error) {
    await privateFolder.remove();
    throw error;
  }
  const releaseGuard = async () => {
    await guard?.close();
    await privateFolder.remove();
  };
  let lease: BrowserLease;
  try {
    lease = await leaseBrowser(settings, artifactsDir);
  } catch (error) {
    await releaseGuard();
    throw error;
  }
  // the browser closes before its folder goes: nothing is written into it after
  const release = async () => {
    await lease.release();
    await releaseGuard();
  };
  try {
    const context = await lease.browser.newContext({
      viewport: settings.viewport,
      acceptDownloads: true,
      userAgent: settings.userAgent,
      // naming <-loopback> makes even this computer's addresses go through the guard (Chromium skips them by default)
      proxy: guard && {
        server: guard.proxyServer,
        bypass: '<-loopback>',
        username: guard.username,
        password: guard.password,
      },
    });
    try {
      if (guard) await context.addInitScript({ content: WITHOUT_WEBRTC });
      return await BrowserSession.open(context, {
        settings,
        workspace,
        artifactsDir,
        workspaceQuotaMb: options.workspaceQuotaMb,
        releaseBrowser: release,
        egressGuard: guard,
      });
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  } catch (error) {
    await release();
    throw error;
  }
}
