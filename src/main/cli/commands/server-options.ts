import { Command, InvalidArgumentError } from 'commander';

/** LOOPBACK_ADDRESS of server/server-address.ts, written out so that `--help` loads no zod (a test holds them equal) */
export const DEFAULT_LISTEN_ADDRESS = '127.0.0.1';

/** The variables `--token` defaults to, one per server command. */
export const MCP_TOKEN_ENV = 'MANUS_MCP_TOKEN';
export const A2A_TOKEN_ENV = 'MANUS_A2A_TOKEN';
export const SERVE_TOKEN_ENV = 'MANUS_SERVE_TOKEN';

/** The values of the flags `addListenOptions` adds. */
export interface ListenOptions {
  port: number;
  host: string;
  allowHost: string[];
}

type Parsers = typeof import('./server-option-parsers.js');
let parsers: Parsers | undefined;
/** the commands given flags below: only they need the parsers (and zod) loaded */
const checkedCommands = new WeakSet<Command>();

/** Loads what `command`'s flags are checked with; the program awaits it before the command parses its flags. */
export async function prepareServerOptions(command: Command): Promise<void> {
  if (checkedCommands.has(command)) parsers ??= await import('./server-option-parsers.js');
}

function checkedBy(command: Command, name: 'parseListenAddress' | 'parseAllowedHost' | 'parseToken') {
  checkedCommands.add(command);
  return (value: string): string => {
    if (!parsers) throw new Error('prepareServerOptions(command) must run before a server command parses its flags');
    return parsers[name](value);
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one)');
  }
  return port;
}

/** `--port`, `--host` and `--allow-host`, shared by every command that opens a server. */
export function addListenOptions(command: Command, defaultPort: number): Command {
  const parseHost = checkedBy(command, 'parseAllowedHost');
  return command
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', parsePort, defaultPort)
    .option(
      '--host <address>',
      'address to listen on; anything but loopback lets other machines reach the server',
      checkedBy(command, 'parseListenAddress'),
      DEFAULT_LISTEN_ADDRESS,
    )
    .option(
      '--allow-host <name>',
      'a name clients reach the server by (Host header) besides 127.0.0.1/localhost; repeatable',
      (value: string, previous: string[]) => [...previous, parseHost(value)],
      [],
    );
}

/** `--token`, whose default comes from `envName`. */
export function addTokenOption(command: Command, envName: string): Command {
  return command.option(
    '--token <token>',
    `bearer token clients must send (default: ${envName}, else a random one printed at start)`,
    checkedBy(command, 'parseToken'),
  );
}
