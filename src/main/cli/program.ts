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
import { indexCommand } from './commands/index-folders.js';
import { prepareServerOptions } from './commands/server-options.js';
import { SWEEP_COMMAND, startSweep, sweepCommand } from './commands/sandbox-sweep.js';
import { resolveDataDir } from '../store/data-dir.js';

export const CLI_VERSION = '0.1.0';

// Each command's implementation, and what it loads (Docker, Playwright, the MCP SDK...), is imported when it runs:
// `--version`, `--help` and the quick commands never pay for the others.
const loadStoreDeps = async () => (await import('./commands/store-deps.js')).cliStoreDeps;
const loadServeDeps = async () => (await import('./commands/serve-deps.js')).cliServeDeps;

/** The `manus` command line: every feature adds its command here. */
export function createProgram(): Command {
  return new Command('manus')
    .description('Manus Desktop: a local-first general AI agent (CLI)')
    .version(CLI_VERSION)
    .option('--data-dir <dir>', "data folder (default: the app's; or MANUS_DATA_DIR)")
    .showHelpAfterError()
    .hook('preSubcommand', (_program, subcommand) => prepareServerOptions(subcommand))
    .hook('preAction', (_program, actionCommand) => {
      // every start sweeps the sandboxes of dead manus processes; prune reports its own
      if (actionCommand.name() === 'prune' || actionCommand.name() === SWEEP_COMMAND) return;
      startSweep(resolveDataDir({ dataDir: actionCommand.optsWithGlobals<{ dataDir?: string }>().dataDir }));
    })
    .addCommand(runCommand())
    .addCommand(sessionsCommand())
    .addCommand(configCommand())
    .addCommand(sandboxCommand())
    .addCommand(mcpCommand(loadStoreDeps))
    .addCommand(mcpServerCommand(loadServeDeps))
    .addCommand(a2aCommand(loadServeDeps))
    .addCommand(indexCommand())
    .addCommand(flowCommand())
    .addCommand(resumeCommand())
    .addCommand(serveCommand({ version: CLI_VERSION }))
    .addCommand(sweepCommand(), { hidden: true });
}
