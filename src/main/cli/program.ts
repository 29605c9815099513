import { Command } from 'commander';
import { runCommand } from './commands/run.js';
import { sessionsCommand } from './commands/sessions.js';
import { configCommand } from './commands/config.js';
import { serveCommand } from './commands/serve.js';
import { flowCommand } from './commands/flow.js';
import { resumeCommand } from './commands/resume.js';
import { sandboxCommand } from './commands/sandbox.js';
import { mcpCommand } from './commands/mcp.js';
import { mcpServerCommand } from './commands/mcp-server.js';
import { a2aCommand } from './commands/a2a.js';
import { cliServeDeps } from './commands/serve-deps.js';
import { sweepOrphanSandboxesInBackground } from '../sandbox/orphan-sandboxes.js';

export const CLI_VERSION = '0.1.0';

/** The `manus` command line: every feature adds its command here. */
export function createProgram(): Command {
  return new Command('manus')
    .description('Manus Desktop: a local-first general AI agent (CLI)')
    .version(CLI_VERSION)
    .option('--data-dir <dir>', "data folder (default: the app's; or MANUS_DATA_DIR)")
    .showHelpAfterError()
    .hook('preAction', (_program, actionCommand) => {
      // every start sweeps the sandboxes of dead manus processes, after the command got going; prune reports its own
      if (actionCommand.name() !== 'prune') setImmediate(() => void sweepOrphanSandboxesInBackground());
    })
    .addCommand(runCommand())
    .addCommand(sessionsCommand())
    .addCommand(configCommand())
    .addCommand(sandboxCommand())
    .addCommand(mcpCommand(cliServeDeps))
    .addCommand(mcpServerCommand(cliServeDeps))
    .addCommand(a2aCommand(cliServeDeps))
    .addCommand(flowCommand())
    .addCommand(resumeCommand())
    .addCommand(serveCommand({ version: CLI_VERSION }));
}
