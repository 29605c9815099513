import type { Stats } from 'node:fs';
import { extname } from 'node:path';

/**
 * What "Open in system" may do with a file of the workspace. Everything there may have been written by the agent,
 * steered by a web page it read: a type the OS runs when opened (a program, a script, a shortcut, an installer) is
 * shown in its folder or opened only after the person confirms, never run on one click.
 */

/** Types the OS (or a runtime that registers itself for them) runs, installs or follows when double-clicked. */
export const RUNNABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  // Windows programs, installers and the script hosts (cmd, PowerShell, Windows Script Host, HTML applications)
  ...['.exe', '.com', '.scr', '.pif', '.cpl', '.msi', '.msp', '.msix', '.appx', '.appxbundle', '.msixbundle'],
  ...['.bat', '.cmd', '.ps1', '.psm1', '.psd1', '.vbs', '.vbe', '.js', '.jse', '.wsf', '.wsh', '.ws', '.hta'],
  ...['.lnk', '.url', '.reg', '.inf', '.scf', '.application', '.appref-ms', '.gadget', '.settingcontent-ms'],
  ...['.diagcab', '.xll', '.library-ms', '.search-ms'],
  // macOS applications, installers and scripts Terminal or Script Editor runs
  ...['.app', '.command', '.tool', '.pkg', '.mpkg', '.terminal', '.workflow', '.action', '.scpt', '.scptd'],
  ...['.applescript', '.prefpane', '.fileloc', '.inetloc', '.webloc'],
  // Linux launchers, self-running archives and packages
  ...['.desktop', '.appimage', '.run', '.bin', '.sh', '.bash', '.zsh', '.ksh', '.csh', '.fish'],
  ...['.deb', '.rpm', '.snap', '.flatpak', '.flatpakref'],
  // interpreters that install a file association (Java, Python's launcher, Perl, Ruby, PHP)
  ...['.jar', '.jnlp', '.py', '.pyw', '.pyz', '.pyzw', '.pl', '.rb', '.php'],
]);

/** `open`: hand it to the system's default application; `confirm`: it would run, ask the person first. */
export type OpenRisk = { kind: 'open' } | { kind: 'confirm'; reason: 'runnable-type' | 'executable-bit' };

/**
 * The decision for one path of the workspace, from its name and its lstat: a runnable type by extension (folders too:
 * a macOS `.app` is one), or any regular file with an execute bit where the OS honours it (not Windows).
 */
export function openRisk(path: string, stat: Pick<Stats, 'isFile' | 'mode'>, platform: NodeJS.Platform): OpenRisk {
  // trailing dots and spaces are dropped by Windows when it resolves a name: "x.bat." runs as x.bat
  const name = platform === 'win32' ? path.replace(/[. ]+$/, '') : path;
  if (RUNNABLE_EXTENSIONS.has(extname(name).toLowerCase())) return { kind: 'confirm', reason: 'runnable-type' };
  if (platform !== 'win32' && stat.isFile() && (stat.mode & 0o111) !== 0) {
    return { kind: 'confirm', reason: 'executable-bit' };
  }
  return { kind: 'open' };
}

/** How a file is marked as come from the Internet, so the OS warns before running it (Gatekeeper, SmartScreen). */
export type DownloadMark =
  | { kind: 'xattr'; command: 'xattr'; args: string[] }
  | { kind: 'zone-identifier'; streamPath: string; content: string };

/** the quarantine agent name Gatekeeper shows ("… downloaded by Manus") */
const QUARANTINE_AGENT = 'Manus';
/** URLZONE_INTERNET: the zone a browser download gets */
const INTERNET_ZONE_ID = 3;

/**
 * The mark for this OS: macOS's `com.apple.quarantine` attribute (flags 0081: downloaded, not yet approved; recursive
 * on a folder, an app bundle is one), Windows's Mark of the Web in the `Zone.Identifier` stream of a file. None on Linux.
 */
export function downloadMark(
  path: string,
  isDirectory: boolean,
  platform: NodeJS.Platform,
  now: Date = new Date(),
): DownloadMark | undefined {
  if (platform === 'darwin') {
    const seconds = Math.floor(now.getTime() / 1000).toString(16);
    const value = `0081;${seconds};${QUARANTINE_AGENT};`;
    return {
      kind: 'xattr',
      command: 'xattr',
      args: [...(isDirectory ? ['-r'] : []), '-w', 'com.apple.quarantine', value, path],
    };
  }
  if (platform === 'win32' && !isDirectory) {
    return {
      kind: 'zone-identifier',
      streamPath: `${path}:Zone.Identifier`,
      content: `[ZoneTransfer]\r\nZoneId=${INTERNET_ZONE_ID}\r\n`,
    };
  }
  return undefined;
}
