// Run before `npm start` and `npm run dev`: on Ubuntu 23.10 and later AppArmor forbids unprivileged user namespaces,
// and Electron's Chromium then aborts with "The SUID sandbox helper binary was found, but is not configured correctly"
// before any of the app's code runs. This says what to do instead of that crash. Elsewhere it says nothing.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const RESTRICTION = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

/** Why Chromium's sandbox cannot start here, or undefined when it can. */
export function sandboxBlocker({ restriction = RESTRICTION, electronDir } = {}) {
  if (process.platform !== 'linux' || !existsSync(restriction)) return undefined;
  if (readFileSync(restriction, 'utf8').trim() !== '1') return undefined;
  const helper = join(electronDir, 'chrome-sandbox');
  // the setuid-root helper is the sandbox Chromium falls back to when user namespaces are refused
  const stat = existsSync(helper) ? statSync(helper) : undefined;
  if (stat && stat.uid === 0 && (stat.mode & 0o4000) !== 0) return undefined;
  return { helper, electron: join(electronDir, 'electron') };
}

export function advice({ helper, electron }) {
  return [
    'Electron cannot start its sandbox here: AppArmor restricts unprivileged user namespaces',
    `(${RESTRICTION} = 1, Ubuntu 23.10 and later) and ${helper} is not setuid root.`,
    'Do one of these, then run the command again:',
    '  1. allow this Electron an AppArmor profile (what the .deb installs for the packaged app):',
    `       printf 'abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile manus-dev-electron "${electron}" flags=(unconfined) {\\n  userns,\\n  include if exists <local/manus-dev-electron>\\n}\\n' | sudo tee /etc/apparmor.d/manus-dev-electron`,
    '       sudo apparmor_parser -r /etc/apparmor.d/manus-dev-electron',
    '  2. or make the sandbox helper setuid root:',
    `       sudo chown root:root "${helper}" && sudo chmod 4755 "${helper}"`,
    'Running without the sandbox (--no-sandbox) is not offered: the page shows text from the web and the model.',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const require = createRequire(import.meta.url);
  let electronDir;
  try {
    electronDir = join(dirname(require.resolve('electron/package.json')), 'dist');
  } catch {
    process.exit(0);
  }
  const blocker = sandboxBlocker({ electronDir });
  if (blocker) {
    console.error(advice(blocker));
    process.exit(1);
  }
}
