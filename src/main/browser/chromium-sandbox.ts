import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What decides whether Chromium's own sandbox can start on this machine. */
export interface SandboxHost {
  platform: NodeJS.Platform;
  /** effective user id; undefined where the OS has none (Windows) */
  uid: number | undefined;
  /** an unprivileged process may create user namespaces (Chromium's usual Linux sandbox) */
  userNamespaces: boolean;
  /** a setuid-root chrome-sandbox helper is installed for the browser (Chromium's older Linux sandbox) */
  suidHelper: boolean;
}

export type SandboxDecision = { enabled: true } | { enabled: false; reason: string };

/**
 * Chromium's sandbox stays on unless it cannot start: as root on Linux Chromium refuses to run sandboxed, and
 * without user namespaces or the setuid helper it has nothing to build the sandbox from. macOS and Windows
 * always have theirs.
 */
export function chromiumSandboxDecision(host: SandboxHost): SandboxDecision {
  if (host.platform !== 'linux') return { enabled: true };
  if (host.uid === 0) return { enabled: false, reason: 'the app runs as root, where Chromium refuses its sandbox' };
  if (host.userNamespaces || host.suidHelper) return { enabled: true };
  return {
    enabled: false,
    reason: 'the system allows no unprivileged user namespaces and has no setuid chrome-sandbox helper',
  };
}

function readSysctl(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Whether the kernel lets this user create user namespaces (Debian's switch, the global cap, Ubuntu's AppArmor rule). */
function userNamespacesAllowed(): boolean {
  if (readSysctl('/proc/sys/kernel/unprivileged_userns_clone') === '0') return false;
  if (readSysctl('/proc/sys/user/max_user_namespaces') === '0') return false;
  // Ubuntu 23.10+ confines them to binaries with an AppArmor profile; not knowing the browser's, assume none
  return readSysctl('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') !== '1';
}

function isSetuidRoot(path: string): boolean {
  try {
    const stat = statSync(path);
    return stat.uid === 0 && (stat.mode & 0o4000) !== 0;
  } catch {
    return false;
  }
}

/** The setuid helper Chromium looks for: CHROME_DEVEL_SANDBOX, or chrome-sandbox beside the real binary. */
function hasSuidHelper(executablePath: string | undefined, env: NodeJS.ProcessEnv): boolean {
  const candidates = env.CHROME_DEVEL_SANDBOX ? [env.CHROME_DEVEL_SANDBOX] : [];
  if (executablePath && existsSync(executablePath)) {
    candidates.push(join(dirname(realpathSync(executablePath)), 'chrome-sandbox'));
    // Debian's /usr/bin/chromium is a script starting /usr/lib/chromium/chromium
    candidates.push('/usr/lib/chromium/chrome-sandbox');
  }
  return candidates.some(isSetuidRoot);
}

/** This machine, as the sandbox decision sees it. */
export function probeSandboxHost(
  executablePath: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): SandboxHost {
  const platform = process.platform;
  const linux = platform === 'linux';
  return {
    platform,
    uid: process.geteuid?.(),
    userNamespaces: linux && userNamespacesAllowed(),
    suidHelper: linux && hasSuidHelper(executablePath, env),
  };
}
