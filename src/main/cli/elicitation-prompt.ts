import {
  readFieldInput,
  type ElicitationAnswer,
  type ElicitationField,
  type ElicitationForm,
  type ElicitationValue,
} from '../../shared/elicitation-form.js';
import { terminalText } from './output/terminal-text.js';

/** Asks one line at the terminal and resolves with what was typed. */
export type LinePrompt = (prompt: string) => Promise<string>;

/**
 * A server's form, field by field at the terminal: Enter keeps the default, a value that does not fit is asked
 * again after the reason; then the person accepts, declines or cancels.
 */
export async function promptElicitation(form: ElicitationForm, ask: LinePrompt): Promise<ElicitationAnswer> {
  let intro = `\n? MCP server "${terminalText(form.server)}" asks: ${terminalText(form.message)}\n`;
  const askLine = (prompt: string) => {
    const line = ask(intro + prompt);
    intro = '';
    return line;
  };
  const content: Record<string, ElicitationValue> = {};
  for (const field of form.fields) {
    let problem = '';
    for (;;) {
      const typed = await askLine(`${problem}${fieldPrompt(field)}`);
      const result = readFieldInput(field, typed.trim() === '' ? defaultText(field) : typed);
      if (result.ok) {
        if (result.value !== undefined) content[field.name] = result.value;
        break;
      }
      problem = `  ✕ ${result.problem}\n`;
    }
  }
  const choice = (await askLine('Send this? [a]ccept / [d]ecline / [c]ancel: ')).trim().toLowerCase();
  if (['a', 'accept', 'y', 'yes'].includes(choice)) return { action: 'accept', content };
  if (['d', 'decline', 'n', 'no'].includes(choice)) return { action: 'decline' };
  return { action: 'cancel' };
}

function fieldPrompt(field: ElicitationField): string {
  const label = terminalText(field.title ?? field.name);
  const hints: string[] = [];
  if (field.type === 'boolean') hints.push('y/n');
  else if (field.type === 'enum' || field.type === 'multi_enum') {
    const options = (field.options ?? []).map((option) =>
      option.label === option.value ? option.value : `${option.label} (${option.value})`,
    );
    hints.push(`${field.type === 'multi_enum' ? 'some of' : 'one of'}: ${terminalText(options.join(', '))}`);
  } else if (field.type !== 'string') hints.push(field.type);
  if (field.required) hints.push('required');
  const fallback = defaultText(field);
  if (fallback) hints.push(`default ${terminalText(fallback)}`);
  const about = field.description ? ` — ${terminalText(field.description)}` : '';
  return `  ${label}${about} [${hints.join(', ')}]: `;
}

/** The default as the person would type it (so Enter and typing it read the same). */
function defaultText(field: ElicitationField): string {
  const value = field.default;
  if (value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return Array.isArray(value) ? value.join(', ') : String(value);
}
