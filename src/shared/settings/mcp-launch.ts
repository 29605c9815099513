import { z } from 'zod';
import type { StdioServerConfig } from './mcp-settings.js';

/** A word a POSIX shell reads as itself without quotes. */
const PLAIN_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
/** Characters that would act on a terminal or hide text, shown as escapes instead (C0, DEL, C1). */
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/g;

/**
 * What a stdio server runs, as the person is shown it before it may start: the program, each argument, the names
 * of the variables it sets (values may be secrets) and its folder. A confirmation names the launch it confirms.
 */
export const StdioLaunchSchema = z.object({
  command: z.string(),
  args: z.array(z.string()),
  envNames: z.array(z.string()),
  cwd: z.string().optional(),
});
export type StdioLaunch = z.infer<typeof StdioLaunchSchema>;

export function stdioLaunchOf(config: StdioServerConfig): StdioLaunch {
  return {
    command: config.command,
    args: config.args,
    envNames: Object.keys(config.env).sort(),
    ...(config.cwd ? { cwd: config.cwd } : {}),
  };
}

export function sameLaunch(a: StdioLaunch, b: StdioLaunch): boolean {
  return JSON.stringify(StdioLaunchSchema.parse(a)) === JSON.stringify(StdioLaunchSchema.parse(b));
}

/**
 * One word as a shell would need it typed: plain, in single quotes, or as $'...' with every control character
 * escaped, so each argument's bounds and every byte of it are visible and nothing in it acts on the terminal.
 */
export function shellWord(word: string): string {
  if (PLAIN_WORD.test(word)) return word;
  if (!new RegExp(CONTROL_CHARACTER.source).test(word)) return `'${word.replaceAll("'", `'\\''`)}'`;
  const escaped = word
    .replaceAll('\\', '\\\\')
    .replaceAll("'", "\\'")
    .replace(CONTROL_CHARACTER, (control) => `\\x${control.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `$'${escaped}'`;
}

/** The launch as one command line a person can read (and paste): program and arguments each shell-quoted. */
export function launchCommandLine(launch: StdioLaunch): string {
  return [launch.command, ...launch.args].map(shellWord).join(' ');
}
