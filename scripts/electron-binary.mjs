// Installs the Electron binary the desktop window runs on, in place of electron's own install script (denied in
// package.json allowScripts, because when GitHub cannot be reached it fails the whole `npm install`). Here a download
// host that does not answer skips the binary with one line saying so: the CLI, `manus serve` and the tests do not need
// it. Run directly (npm's prestart) it tries again and exits 1 with that line when the binary is still missing.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PROBE_TIMEOUT_MS = 10_000;
const DEFAULT_HOST = 'https://github.com/electron/electron/releases/';
const TRY_AGAIN = 'run `node scripts/electron-binary.mjs` when it can be reached';

const electronDir = (root) => join(root, 'node_modules', 'electron');

/** The binary of this electron version is there: what electron's install.js checks before downloading. */
function isInstalled(root) {
  const dir = electronDir(root);
  try {
    const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const installedVersion = readFileSync(join(dir, 'dist', 'version'), 'utf8')
      .replace(/^v/, '')
      .trim();
    const executable = readFileSync(join(dir, 'path.txt'), 'utf8');
    return installedVersion === version && existsSync(join(dir, 'dist', executable));
  } catch {
    return false;
  }
}

/** Where @electron/get downloads from: a mirror named in the environment, else GitHub's releases. */
function downloadHost(env) {
  return new URL(env.ELECTRON_MIRROR || env.npm_config_electron_mirror || DEFAULT_HOST);
}

/** Whether a TCP connection to the download host opens in time (DNS included). */
function answers(url) {
  const port = Number(url.port) || (url.protocol === 'http:' ? 80 : 443);
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port, timeout: PROBE_TIMEOUT_MS });
    const settle = (reachable) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.once('connect', () => settle(true));
    socket.once('timeout', () => settle(false));
    socket.once('error', () => settle(false));
  });
}

const usesProxy = (env) =>
  Boolean(env.ELECTRON_GET_USE_PROXY || env.HTTPS_PROXY || env.https_proxy || env.GLOBAL_AGENT_HTTPS_PROXY);

/** Downloads the binary unless it is there or cannot be; says why when it is not installed. Returns whether it is. */
export async function installElectronBinary(root = process.cwd(), env = process.env) {
  if (isInstalled(root)) return true;
  if (!existsSync(join(electronDir(root), 'install.js'))) return false;
  if (env.ELECTRON_SKIP_BINARY_DOWNLOAD) {
    console.log('electron: ELECTRON_SKIP_BINARY_DOWNLOAD is set, the Electron binary is not downloaded.');
    return false;
  }
  const host = downloadHost(env);
  // behind a proxy the host is reached through it (ELECTRON_GET_USE_PROXY), so a direct probe would say no wrongly
  if (!usesProxy(env) && !(await answers(host))) {
    console.log(
      `electron: ${host.hostname} cannot be reached, so the Electron binary is not downloaded: the desktop window ` +
        `needs it (${TRY_AGAIN}, or set ELECTRON_MIRROR); the CLI, \`manus serve\` and the tests do not.`,
    );
    return false;
  }
  console.log(`electron: downloading the Electron binary from ${host.hostname}…`);
  const download = spawnSync(process.execPath, ['install.js'], { cwd: electronDir(root), stdio: 'inherit', env });
  if (download.status !== 0 || !isInstalled(root)) {
    console.log(`electron: the download failed (output above); the desktop window needs the binary: ${TRY_AGAIN}.`);
    return false;
  }
  return true;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit((await installElectronBinary()) ? 0 : 1);
}
