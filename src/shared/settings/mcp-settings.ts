import { z } from 'zod';

const common = {
  enabled: z.boolean().default(true),
  /** per tool: 'auto' runs it, 'ask' asks first; tools not listed follow the global policy */
  toolApproval: z.record(z.string(), z.enum(['auto', 'ask'])).default({}),
  timeoutMs: z.number().int().positive().default(30_000),
  /** how long connecting (spawn + initialize + listing) may take before the server counts as failed */
  connectTimeoutMs: z.number().int().positive().default(20_000),
};

/** How we sign in to a remote server that asks for OAuth; all optional: discovery and registration fill the rest. */
export const McpOAuthSettingsSchema = z.object({
  /** a client the authorization server knows already (else we register one, RFC 7591) */
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  /** how a pre-registered client proves itself at the token endpoint (default: what the server supports) */
  tokenEndpointAuthMethod: z.enum(['none', 'client_secret_basic', 'client_secret_post']).optional(),
  /**
   * an https URL where our client metadata document is published: used as the client ID by authorization
   * servers that accept such documents, instead of registering a client
   */
  clientMetadataUrl: z.string().url().startsWith('https://').optional(),
  /** the scopes to ask for (default: the server's challenge, else all it supports) */
  scope: z.string().min(1).optional(),
});
export type McpOAuthSettings = z.infer<typeof McpOAuthSettingsSchema>;

/** A new server's name (add, import, the settings form): a settings key, and part of `mcp_<name>_<tool>`. */
export const MCP_SERVER_NAME = /^[a-zA-Z0-9_-]{1,40}$/;
export const McpServerNameSchema = z.string().regex(MCP_SERVER_NAME, 'a server name is 1-40 of a-z A-Z 0-9 _ -');

/** C0 controls (newline and tab too), DEL and C1: no command line needs one, and a terminal acts on them. */
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;

/**
 * A saved server's name: new ones follow the rule above (add, import, the settings form); one saved before it
 * stays usable unless it holds a control character.
 */
const StoredServerNameSchema = z
  .string()
  .min(1)
  .refine((name) => !CONTROL_CHARACTER.test(name), 'a server name must not contain control characters');

const StdioServerSchema = z
  .object({
    type: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    /**
     * set while nobody has seen this command: it came from an imported file, and it is not started until the
     * person confirms it (`manus mcp confirm`, or Settings → MCP servers); absent once confirmed or typed by them
     */
    unconfirmed: z.boolean().optional(),
    ...common,
  })
  // one issue for the whole server: a settings repair drops the server, never one argument of its command
  .refine(
    (server) =>
      ![server.command, ...server.args, ...Object.keys(server.env), server.cwd ?? ''].some((text) =>
        CONTROL_CHARACTER.test(text),
      ),
    'the command, its arguments, env names and folder must not contain control characters (ESC, CR, newline...)',
  );
export type StdioServerConfig = z.infer<typeof StdioServerSchema>;

export const McpServerConfigSchema = z.discriminatedUnion('type', [
  StdioServerSchema,
  z.object({
    type: z.literal('sse'),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
    oauth: McpOAuthSettingsSchema.default({}),
    ...common,
  }),
  z.object({
    type: z.literal('http'),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
    oauth: McpOAuthSettingsSchema.default({}),
    ...common,
  }),
]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

export const McpSettingsSchema = z.object({
  servers: z.record(StoredServerNameSchema, McpServerConfigSchema).default({}),
});
export type McpSettings = z.infer<typeof McpSettingsSchema>;
