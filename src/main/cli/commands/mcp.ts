import { Command, Option } from 'commander';
import type { StoreDeps } from './command-deps.js';
import type { DepsSource } from './deps-source.js';
import type { AddOptions } from './mcp-actions.js';

const actions = () => import('./mcp-actions.js');

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `manus mcp add|remove|enable|disable|list|test|import|confirm|export`: the MCP servers sessions connect to. */
export function mcpCommand(deps: DepsSource<StoreDeps>): Command {
  const mcp = new Command('mcp').description('MCP servers whose tools the agent can use');

  mcp
    .command('add')
    .description('add a server: `manus mcp add NAME -- npx -y PKG ARGS`, or --command/--arg, or --url URL')
    .argument('<name>', 'a short name; tools appear as mcp_<name>_<tool>')
    .argument('[commandLine...]', 'the command and its arguments (after --)')
    .option('--command <cmd>', 'program to start (stdio server), found on PATH like a shell would')
    .option('--arg <value>', 'an argument (repeat for more)', collect, [])
    .option('--env <KEY=VALUE>', 'an environment variable for the server (repeat)', collect, [])
    .option('--cwd <dir>', 'working folder of the server process')
    .option('--url <url>', 'URL of a remote server')
    .addOption(new Option('--type <type>', 'remote transport').choices(['sse', 'http']))
    .option('--header <KEY=VALUE>', 'an HTTP header for a remote server (repeat)', collect, [])
    .option('--client-id <id>', 'OAuth: a client the server knows already (else one is registered at sign-in)')
    .option('--client-secret <secret>', 'OAuth: the secret of that client (stored encrypted)')
    .option('--client-metadata-url <url>', 'OAuth: an https client ID metadata document to use instead of registering')
    .option('--scope <scopes>', 'OAuth: the scopes to ask for (default: what the server asks)')
    .addOption(
      new Option('--token-auth <method>', 'OAuth: how that client proves itself at the token endpoint').choices([
        'none',
        'client_secret_basic',
        'client_secret_post',
      ]),
    )
    .option('--timeout <ms>', 'how long a tool call may take')
    .option('--disabled', 'add it switched off')
    .option('--force', 'replace a server of the same name')
    .action(async (name: string, commandLine: string[], options: AddOptions, command: Command) =>
      (await actions()).addServer(deps, name, commandLine, options, command),
    );

  mcp
    .command('remove')
    .description('remove a server')
    .argument('<name>')
    .action(async (name: string, _options: unknown, command: Command) =>
      (await actions()).removeServer(deps, name, command),
    );

  for (const enabled of [true, false]) {
    mcp
      .command(enabled ? 'enable' : 'disable')
      .description(enabled ? 'switch a server on' : 'switch a server off (kept in the list)')
      .argument('<name>')
      .action(async (name: string, _options: unknown, command: Command) =>
        (await actions()).switchServer(deps, name, enabled, command),
      );
  }

  mcp
    .command('list')
    .description('list configured servers')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) =>
      (await actions()).listServers(deps, options, command),
    );

  mcp
    .command('test')
    .description('connect to one server (even a disabled one) and print its tools, prompts and resources')
    .argument('<name>')
    .action(async (name: string, _options: unknown, command: Command) =>
      (await actions()).testServer(deps, name, command),
    );

  mcp
    .command('login')
    .description('sign in to a remote server that asks for OAuth (opens the browser; $BROWSER is honoured)')
    .argument('<name>')
    .action(async (name: string, _options: unknown, command: Command) => (await actions()).logIn(deps, name, command));

  mcp
    .command('logout')
    .description('sign out of a remote server: forget its tokens and the client registered for it')
    .argument('<name>')
    .action(async (name: string, _options: unknown, command: Command) => (await actions()).logOut(deps, name, command));

  mcp
    .command('import')
    .description('import servers from a {"mcpServers": {...}} JSON file (Claude Desktop, OpenManus, Cursor)')
    .argument('<file>')
    .option('--force', 'replace servers that have the same name')
    .option('--yes', 'confirm the commands it shows without asking (else each is asked, or left unconfirmed)')
    .action(async (file: string, options: { force?: boolean; yes?: boolean }, command: Command) =>
      (await actions()).importServers(deps, file, options, command),
    );

  mcp
    .command('confirm')
    .description('show the exact command of an imported server and let it start (it does not start before)')
    .argument('<name>')
    .option('--yes', 'confirm without asking')
    .action(async (name: string, options: { yes?: boolean }, command: Command) =>
      (await import('./mcp-confirm.js')).confirmServer(deps, name, options, command),
    );

  mcp
    .command('export')
    .description('print the servers as {"mcpServers": {...}} JSON, or write it to a file')
    .argument('[file]')
    .action(async (file: string | undefined, _options: unknown, command: Command) =>
      (await actions()).exportServers(deps, file, command),
    );

  return mcp;
}
