import { TokenSchema, randomToken } from '../../server/request-guard.js';
import { exposureWarning } from '../../server/server-address.js';

/**
 * The token from `--token`, else from `envName`, else the caller's `kept` one (serve keeps one per data folder),
 * else a fresh one the caller must show once.
 */
export function serverToken(
  flag: string | undefined,
  envName: string,
  env: NodeJS.ProcessEnv = process.env,
  kept?: () => string,
): { token: string; generated: boolean } {
  if (flag) return { token: flag, generated: false };
  const fromEnv = env[envName];
  if (!fromEnv) return kept ? { token: kept(), generated: false } : { token: randomToken(), generated: true };
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
