import { accessSync, constants, statSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

const LOGIN_SHELL_TIMEOUT_MS = 4_000;
const PATH_MARKER = '__MANUS_PATH__';
const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

export interface CommandLookup {
  /** PATH to search, in the platform's format */
  path: string;
  /** Windows: extensions tried for a bare name, e.g. ".COM;.EXE;.BAT;.CMD" */
  pathExt?: string;
  cwd?: string;
  platform?: NodeJS.Platform;
}

/** The executable a shell would run for `command`, or undefined when there is none. */
export function findExecutable(command: string, lookup: CommandLookup): string | undefined {
  const platform = lookup.platform ?? process.platform;
  const extensions = executableExtensions(command, lookup, platform);
  if (hasDirectory(command, platform)) {
    const base = isAbsolute(command) ? command : resolve(lookup.cwd ?? process.cwd(), command);
    return extensions.map((ext) => base + ext).find((candidate) => isExecutable(candidate, platform));
  }
  for (const dir of lookup.path.split(platform === 'win32' ? ';' : delimiter)) {
    if (!dir) continue;
    const found = extensions
      .map((ext) => join(dir, command + ext))
      .find((candidate) => isExecutable(candidate, platform));
    if (found) return found;
  }
  return undefined;
}

function executableExtensions(command: string, lookup: CommandLookup, platform: NodeJS.Platform): string[] {
  if (platform !== 'win32') return [''];
  // Windows file names are case-insensitive; both cases keep the lookup right on other file systems too
  const pathExt = [
    ...new Set(
      (lookup.pathExt ?? DEFAULT_PATHEXT)
        .split(';')
        .filter(Boolean)
        .flatMap((ext) => [ext.toLowerCase(), ext]),
    ),
  ];
  // a name that already carries a known extension is tried as is first
  const hasKnownExt = pathExt.some((ext) => command.toLowerCase().endsWith(ext.toLowerCase()));
  return hasKnownExt ? ['', ...pathExt] : pathExt;
}

function hasDirectory(command: string, platform: NodeJS.Platform): boolean {
  return command.includes('/') || (platform === 'win32' && command.includes('\\'));
}

function isExecutable(candidate: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(candidate).isFile()) return false;
    if (platform !== 'win32') accessSync(candidate, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

let loginShellPath: Promise<string | undefined> | undefined;

/**
 * The PATH of the user's login shell: apps started from a desktop launcher get a minimal PATH that misses
 * nvm, Homebrew, ~/.local/bin (where npx and uvx usually live). Asked once per process.
 */
export function userShellPath(): Promise<string | undefined> {
  if (process.platform === 'win32' || !process.env.SHELL) return Promise.resolve(undefined);
  loginShellPath ??= new Promise((done) => {
    execFile(
      process.env.SHELL as string,
      ['-ilc', `printf '${PATH_MARKER}%s${PATH_MARKER}' "$PATH"`],
      { timeout: LOGIN_SHELL_TIMEOUT_MS, encoding: 'utf8' },
      (error, stdout) => {
        const match = new RegExp(`${PATH_MARKER}(.*)${PATH_MARKER}`).exec(stdout ?? '');
        done(error && !match ? undefined : match?.[1]);
      },
    );
  });
  return loginShellPath;
}

/** Joins PATH lists keeping the first occurrence of each folder. */
export function mergePaths(platform: NodeJS.Platform, ...paths: (string | undefined)[]): string {
  const separator = platform === 'win32' ? ';' : delimiter;
  const seen = new Set<string>();
  for (const path of paths) {
    for (const dir of (path ?? '').split(separator)) if (dir) seen.add(dir);
  }
  return [...seen].join(separator);
}
