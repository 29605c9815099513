import { createInterface } from 'node:readline/promises';
import type { Command } from 'commander';
import { launchCommandLine, shellWord, stdioLaunchOf, type StdioLaunch } from '../../../shared/settings/mcp-launch.js';
import { readMcpSettings, updateMcpSettings } from '../../mcp/mcp-settings-store.js';
import { confirmLaunches, isUnconfirmed } from '../../mcp/launch-confirmation.js';
import { printErr, printOut } from '../output/terminal-print.js';
import { withData, type StoreDeps } from './command-deps.js';
import type { DepsSource } from './deps-source.js';

type Deps = DepsSource<StoreDeps>;

export interface ConfirmOptions {
  /** confirm without asking (for scripts that have checked the commands themselves) */
  yes?: boolean;
}

/** The launch of a stdio server, line by line, as the person must see it before it may start. */
export function printLaunch(name: string, launch: StdioLaunch): void {
  printOut.line`  ${name}: ${launchCommandLine(launch)}`;
  if (launch.envNames.length) printOut.line`    sets ${launch.envNames.map(shellWord).join(' ')}`;
  if (launch.cwd) printOut.line`    in ${shellWord(launch.cwd)}`;
}

/** Asks at the terminal; off a terminal nobody can answer, so nothing is confirmed. */
async function askYes(question: string): Promise<boolean> {
  if (!process.stdin.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

/** Whether the person lets this launch start: `--yes`, or their answer at the terminal. */
export async function personConfirms(name: string, options: ConfirmOptions): Promise<boolean> {
  return options.yes === true || askYes(`? Start this command whenever a session uses "${name}"? [y/N] `);
}

/** Says how to confirm the servers that stay unconfirmed. */
export function printHowToConfirm(names: string[]): void {
  if (names.length === 0) return;
  printErr.line`Not confirmed, so not started until you confirm: ${names}. See and confirm each with \`manus mcp confirm NAME\` (add --yes where nobody can answer).`;
}

/** `manus mcp confirm NAME`: shows the exact command, then lets it start. */
export async function confirmServer(
  deps: Deps,
  name: string,
  options: ConfirmOptions,
  command: Command,
): Promise<void> {
  await withData(deps, command, async ({ store, secrets }) => {
    const config = readMcpSettings(store, secrets).servers[name];
    if (!config) throw new Error(`No MCP server "${name}".`);
    if (!isUnconfirmed(config)) {
      printOut.line`MCP server "${name}" needs no confirmation: its command is confirmed, or it is a remote server.`;
      return;
    }
    const launch = stdioLaunchOf(config);
    printOut.line`MCP server "${name}" runs:`;
    printLaunch(name, launch);
    if (!(await personConfirms(name, options))) {
      printHowToConfirm([name]);
      process.exitCode = 1;
      return;
    }
    updateMcpSettings(store, secrets, (current) => confirmLaunches(current, { [name]: launch }));
    printOut.line`Confirmed: "${name}" starts when a session uses it.`;
  });
}
