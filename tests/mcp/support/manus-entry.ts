import { createProgram } from '../../../src/main/cli/program.js';
import { mcpCommand } from '../../../src/main/cli/commands/mcp.js';
import { mcpServerCommand } from '../../../src/main/cli/commands/mcp-server.js';
import { a2aCommand } from '../../../src/main/cli/commands/a2a.js';
import { cliServeDeps } from '../../../src/main/cli/commands/serve-deps.js';

/** The `manus` program with the MCP and A2A commands, run from source (`node --import tsx manus-entry.ts ...`). */
const program = createProgram();
for (const command of [mcpCommand(cliServeDeps), mcpServerCommand(cliServeDeps), a2aCommand(cliServeDeps)]) {
  if (!program.commands.some((existing) => existing.name() === command.name())) program.addCommand(command);
}
program.parseAsync(process.argv).catch((error: Error) => {
  process.stderr.write(`manus: ${error.message}\n`);
  process.exitCode = 2;
});
