import stripAnsi from 'strip-ansi';

/** C0 controls but newline and tab, DEL, and the C1 range (U+0080–U+009F: 8-bit CSI, OSC, ST...). */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/**
 * Text from the model, a tool or a page made safe to print on a terminal: escape sequences (CSI, OSC such as
 * title setting and hyperlinks, DCS...) are removed, then every control character left but newline and tab, so
 * what an attacker wrote cannot clear the screen, retitle the window, fake links or hide earlier lines.
 */
export function terminalText(text: string): string {
  return stripAnsi(text).replace(CONTROL_CHARACTERS, '');
}

/** Our own colours: only on a terminal that wants them (NO_COLOR, FORCE_COLOR=0, TERM=dumb turn them off). */
export function wantsColor(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && (typeof stream.hasColors !== 'function' || stream.hasColors(env));
}
