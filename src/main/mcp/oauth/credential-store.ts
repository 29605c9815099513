import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import {
  OAuthClientInformationFullSchema,
  OAuthClientInformationSchema,
  OAuthTokensSchema,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SecretBox } from '../../store/secrets.js';

/** What signing in to one remote MCP server leaves behind; none of it is ever written in plain text. */
export const McpCredentialsSchema = z.object({
  /** the server URL these were issued for: a server moved to another URL signs in again */
  url: z.string(),
  /** the client the authorization server registered for us, or our metadata document's URL as client ID */
  // loose: what the SDK adds (the issuer they came from) is kept for it
  client: z.union([OAuthClientInformationFullSchema.loose(), OAuthClientInformationSchema.loose()]).optional(),
  tokens: OAuthTokensSchema.loose().optional(),
  /** ms since epoch when the access token expires, when the server said */
  expiresAt: z.number().optional(),
  /** the loopback port the registered client's redirect URI names, reused so the registration stays valid */
  redirectPort: z.number().int().positive().optional(),
  /** scopes a call was refused for (403 insufficient_scope): the next sign-in asks for them too */
  scopeNeeded: z.string().optional(),
});
export type McpCredentials = z.infer<typeof McpCredentialsSchema>;

/** Where remote servers' OAuth tokens and registered clients are kept, by server name; app and CLI share one. */
export interface McpCredentialStore {
  read(server: string): Promise<McpCredentials | undefined>;
  write(server: string, credentials: McpCredentials): Promise<void>;
  forget(server: string): Promise<void>;
}

/**
 * Credentials sealed with the data folder's secret store (`openSecretBox`: its key in the OS keychain, else in
 * the key file), one file per server (mode 0600) under `dir`. A file that cannot be opened counts as "not
 * signed in" rather than failing the connection.
 */
export class SecretBoxCredentialStore implements McpCredentialStore {
  constructor(
    private readonly dir: string,
    private readonly box: SecretBox,
  ) {}

  async read(server: string): Promise<McpCredentials | undefined> {
    let sealed: string;
    try {
      sealed = await readFile(this.fileOf(server), 'utf8');
    } catch {
      return undefined;
    }
    try {
      const parsed = McpCredentialsSchema.safeParse(JSON.parse(this.box.decrypt(sealed.trim())));
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async write(server: string, credentials: McpCredentials): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const file = this.fileOf(server);
    await writeFile(file, this.box.encrypt(JSON.stringify(credentials)) + '\n', { mode: 0o600 });
    await chmod(file, 0o600);
  }

  async forget(server: string): Promise<void> {
    await rm(this.fileOf(server), { force: true });
  }

  private fileOf(server: string): string {
    return join(this.dir, `${encodeURIComponent(server)}.sealed`);
  }
}

/** The credential store of a data folder, sealed with its secret store. */
export function credentialStoreIn(dataDir: string, box: SecretBox): McpCredentialStore {
  return new SecretBoxCredentialStore(join(dataDir, 'mcp-auth'), box);
}
