import { Command, InvalidArgumentError } from 'commander';
import type { z } from 'zod';
import { AllowedHostSchema, TokenSchema, randomToken } from '../../server/request-guard.js';
import { LOOPBACK_ADDRESS, ListenAddressSchema, exposureWarning } from '../../server/server-address.js';

/** The values of the flags `addListenOptions` adds. */
export interface ListenOptions {
  port: number;
  host: string;
  allowHost: string[];
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one)');
  }
  return port;
}

/** A commander argument parser from a zod schema: its first issue becomes the error. */
function parsedBy<T>(schema: z.ZodType<T, string>) {
  return (value: string): T => {
    const result = schema.safeParse(value);
    if (!result.success) throw new InvalidArgumentError(result.error.issues[0]?.message ?? 'invalid value');
    return result.data;
  };
}

/** `--port`, `--host` and `--allow-host`, shared by every command that opens a server. */
export function addListenOptions(command: Command, defaultPort: number): Command {
  const parseHost = parsedBy(AllowedHostSchema);
  return command
    .option('-p, --port <port>', 'port to listen on (0 picks a free one)', parsePort, defaultPort)
    .option(
      '--host <address>',
      'address to listen on; anything but loopback lets other machines reach the server',
      parsedBy(ListenAddressSchema),
      LOOPBACK_ADDRESS,
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
    parsedBy(TokenSchema),
  );
}

/** The token from `--token`, else from `envName`, else a fresh one the caller must show once. */
export function serverToken(
  flag: string | undefined,
  envName: string,
  env: NodeJS.ProcessEnv = process.env,
): { token: string; generated: boolean } {
  if (flag) return { token: flag, generated: false };
  const fromEnv = env[envName];
  if (!fromEnv) return { token: randomToken(), generated: true };
  const parsed = TokenSchema.safeParse(fromEnv);
  if (!parsed.success) {
    throw Object.assign(new Error(`${envName}: ${parsed.error.issues[0]?.message ?? 'invalid token'}`), {
      hint: `Set ${envName} to a longer secret, or unset it to get a random token.`,
    });
  }
  return { token: parsed.data, generated: false };
}

/** What a person starting a server needs on stderr: the exposure warning, and a generated token once. */
export function announceAccess(
  write: (line: string) => void,
  options: { command: string; host: string; token: string; generated: boolean; envName: string },
): void {
  const warning = exposureWarning(options.host, options.command);
  if (warning) write(warning);
  if (!options.generated) return;
  write(`Clients must send this header (a new token each start; set ${options.envName} or --token to keep one):`);
  write(`Authorization: Bearer ${options.token}`);
}
