import { Command } from 'commander';
import { openStore } from '../../../src/main/store/store.js';
import { resolveDataDir } from '../../../src/main/store/data-dir.js';
import { mcpCommand } from '../../../src/main/cli/commands/mcp.js';

export const storeDeps = { openStore, resolveDataDir };

/** The `manus` program as far as these commands go, with the global `--data-dir`. */
export function testProgram(...commands: Command[]): Command {
  const program = new Command('manus').option('--data-dir <dir>').exitOverride();
  for (const command of commands) program.addCommand(command.exitOverride());
  return program;
}

/** Runs `manus mcp ...` in-process and returns what it printed. */
export async function runMcpCli(dataDir: string, args: string[]): Promise<string> {
  const printed: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    printed.push(chunk.toString());
    return true;
  }) as typeof process.stdout.write;
  try {
    await testProgram(mcpCommand(storeDeps)).parseAsync(['node', 'manus', '--data-dir', dataDir, 'mcp', ...args]);
  } finally {
    process.stdout.write = write;
  }
  return printed.join('');
}
