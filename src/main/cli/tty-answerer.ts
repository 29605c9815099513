import { createInterface } from 'node:readline/promises';
import type { CoreEvent } from '../../shared/events.js';
import { encodeElicitationAnswer } from '../../shared/elicitation-form.js';
import { promptElicitation } from './elicitation-prompt.js';
import { terminalText } from './output/terminal-text.js';

/** Answers the agent's questions (and approval requests) at a terminal prompt. */
export function createTtyAnswerer(
  answer: (sessionId: string, askId: string, text: string) => void,
): (event: CoreEvent) => void {
  return (event) => {
    if (event.type !== 'ask' || event.status !== 'waiting') return;
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    if (event.kind === 'elicitation' && event.form) {
      void promptElicitation(event.form, (prompt) => rl.question(prompt)).then(
        (reply) => {
          rl.close();
          answer(event.sessionId, event.askId, encodeElicitationAnswer(reply));
        },
        () => rl.close(),
      );
      return;
    }
    const prompt =
      event.kind === 'approval'
        ? `\n? Allow ${terminalText(event.tool?.name ?? 'this tool')} ${terminalText(JSON.stringify(event.tool?.args ?? {}))}? [y]es / [n]o / [a]lways: `
        : `\n? ${terminalText(event.question)}\n> `;
    void rl.question(prompt).then(
      (text) => {
        rl.close();
        answer(event.sessionId, event.askId, text);
      },
      () => rl.close(),
    );
  };
}
