import { CommanderError } from 'commander';
import { createProgram } from './program.js';
import { EXIT_CODES } from './exit-codes.js';
import { environmentSecrets, redactText } from '../store/redact.js';

/** Entry of the `manus` binary: any failure ends as one readable line (and a hint) with a non-zero code. */
async function main(): Promise<void> {
  // `manus ... | head` closes the pipe early: that is the reader's choice, not an error
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const program = createProgram().exitOverride();
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      process.exitCode = error.exitCode === 0 ? 0 : EXIT_CODES.usage;
      return;
    }
    const failure = error as Error & { hint?: string };
    // loaded on failure only: `--version` and `--help` load commander and nothing else
    const { printErr } = await import('./output/terminal-print.js');
    // a thrown error may quote a key it was given (a provider's reply, a server's message)
    const redact = (text: string) => redactText(text, environmentSecrets());
    // the message may quote outside text too: a server's error, a name from an imported file
    printErr.line`manus: ${redact(failure.message)}${failure.hint ? `\n  ${redact(failure.hint)}` : ''}`;
    if (process.env.MANUS_DEBUG) printErr.line`${redact(failure.stack ?? '')}`;
    process.exitCode = EXIT_CODES.usage;
  }
}

void main();
