import { afterAll, describe, expect, it } from 'vitest';
import {
  chromiumSandboxDecision,
  probeSandboxHost,
  type SandboxHost,
} from '../../src/main/browser/chromium-sandbox.js';
import { closeSharedBrowsers, launchOptionsFor } from '../../src/main/browser/browser-launcher.js';
import { BrowserSettingsSchema } from '../../src/shared/settings/browser-settings.js';
import { act, browserContext, CHROMIUM } from './browser-test-kit.js';

const LINUX_USER: SandboxHost = { platform: 'linux', uid: 1000, userNamespaces: true, suidHelper: false };

describe("Chromium's own sandbox", () => {
  it('stays on for a normal user on Linux, macOS and Windows', () => {
    expect(chromiumSandboxDecision(LINUX_USER)).toEqual({ enabled: true });
    expect(chromiumSandboxDecision({ ...LINUX_USER, userNamespaces: false, suidHelper: true })).toEqual({
      enabled: true,
    });
    expect(chromiumSandboxDecision({ ...LINUX_USER, platform: 'darwin', userNamespaces: false })).toEqual({
      enabled: true,
    });
    expect(chromiumSandboxDecision({ ...LINUX_USER, platform: 'win32', uid: undefined })).toEqual({ enabled: true });
  });

  it('is off, with the reason, only where Chromium cannot start it', () => {
    expect(chromiumSandboxDecision({ ...LINUX_USER, uid: 0 })).toEqual({
      enabled: false,
      reason: expect.stringContaining('root'),
    });
    expect(chromiumSandboxDecision({ ...LINUX_USER, userNamespaces: false })).toEqual({
      enabled: false,
      reason: expect.stringContaining('user namespaces'),
    });
  });

  it('reaches the launch options: on for a user, off as root, the setting wins', () => {
    const settings = BrowserSettingsSchema.parse({ executablePath: CHROMIUM });
    expect(launchOptionsFor(settings, () => LINUX_USER).chromiumSandbox).toBe(true);
    expect(launchOptionsFor(settings, () => ({ ...LINUX_USER, uid: 0 })).chromiumSandbox).toBe(false);
    expect(launchOptionsFor({ ...settings, chromiumSandbox: 'off' }, () => LINUX_USER).chromiumSandbox).toBe(false);
    expect(
      launchOptionsFor({ ...settings, chromiumSandbox: 'on' }, () => ({ ...LINUX_USER, uid: 0 })).chromiumSandbox,
    ).toBe(true);
  });

  it('reads the old saved default (false) as auto, and true as on, so existing installs get the sandbox', () => {
    expect(BrowserSettingsSchema.parse({}).chromiumSandbox).toBe('auto');
    expect(BrowserSettingsSchema.parse({ chromiumSandbox: false }).chromiumSandbox).toBe('auto');
    expect(BrowserSettingsSchema.parse({ chromiumSandbox: true }).chromiumSandbox).toBe('on');
    expect(BrowserSettingsSchema.parse({ chromiumSandbox: 'off' }).chromiumSandbox).toBe('off');
    expect(BrowserSettingsSchema.safeParse({ chromiumSandbox: 'maybe' }).success).toBe(false);
  });

  it('sees this machine as it is', () => {
    const host = probeSandboxHost(CHROMIUM);
    expect(host.platform).toBe(process.platform);
    expect(host.uid).toBe(process.geteuid?.());
  });
});

describe('the sandbox in a real launch', () => {
  const ctx = browserContext({ settings: { browser: { chromiumSandbox: 'on' } } });

  afterAll(async () => {
    await ctx.session.release();
    await closeSharedBrowsers();
  });

  it('starts where the decision says it can, else names the setting (here, as root, it cannot)', async () => {
    const decision = chromiumSandboxDecision(probeSandboxHost(CHROMIUM));
    const result = await act(ctx, { action: 'go_to_url', url: 'about:blank' });
    if (decision.enabled) {
      expect(result.error).toBeUndefined();
    } else {
      expect(result.error).toContain('could not start its sandbox on this system');
      expect(result.error).toContain('browser.chromiumSandbox to off');
    }
  });
});
