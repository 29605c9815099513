import { terminalText } from './terminal-text.js';

/** Controls JSON.stringify leaves raw: DEL and C1 (U+0080–U+009F, 8-bit CSI and OSC on some terminals). */
const RAW_IN_JSON = /[\u007F-\u009F]/g;

/**
 * How the CLI's commands print, so text from outside cannot reach the terminal raw: a line is a tagged template
 * whose own text is ours and whose every value (a name, a command, a server's description, an error) goes through
 * `terminalText`; a block of outside text goes through it whole; JSON keeps values exact but escapes every control.
 */
export interface TerminalPrinter {
  line(strings: TemplateStringsArray, ...values: unknown[]): void;
  text(outsideText: string): void;
  json(value: unknown): void;
  /** a document someone may redirect to a file (an export): exact into a pipe, made safe on a terminal */
  document(outsideText: string): void;
}

/** The template's own parts as written, each value made safe to show (a list shown comma-separated). */
export function safeLine(strings: TemplateStringsArray, ...values: unknown[]): string {
  const shown = (value: unknown) => terminalText(Array.isArray(value) ? value.join(', ') : String(value));
  return strings.reduce((line, part, index) => line + part + (index < values.length ? shown(values[index]) : ''), '');
}

/** JSON as exact as JSON.stringify, with no control character left raw for a terminal to act on. */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    RAW_IN_JSON,
    (control) => `\\u${control.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function terminalPrinter(stream: NodeJS.WriteStream): TerminalPrinter {
  return {
    line: (strings, ...values) => void stream.write(`${safeLine(strings, ...values)}\n`),
    text: (outsideText) => void stream.write(terminalText(outsideText)),
    json: (value) => void stream.write(`${terminalJson(value, 2)}\n`),
    document: (outsideText) => void stream.write(stream.isTTY ? terminalText(outsideText) : outsideText),
  };
}

export const printOut = terminalPrinter(process.stdout);
export const printErr = terminalPrinter(process.stderr);
