/**
 * What a local driver (python, bash) inherits from the app: enough to find programs, write temp files and speak
 * the user's locale. Never the rest: the app's environment holds API keys and server tokens.
 */
const INHERITED_NAMES = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TMPDIR',
  'DISPLAY',
  // Windows: programs do not start without these
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'PROGRAMFILES',
  'SYSTEMDRIVE',
] as const;
/** LC_ALL, LC_CTYPE...: the locale, never a secret */
const INHERITED_PREFIX = 'LC_';

/** The app's variables a local driver may see; `own` (the workspace, the pager...) is laid on top. */
export function localDriverEnvironment(
  own: Record<string, string>,
  appEnv: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const inherited: Record<string, string> = {};
  for (const [name, value] of Object.entries(appEnv)) {
    if (value === undefined) continue;
    const upper = name.toUpperCase();
    if ((INHERITED_NAMES as readonly string[]).includes(upper) || upper.startsWith(INHERITED_PREFIX)) {
      inherited[name] = value;
    }
  }
  return { ...inherited, ...own };
}
