import { z } from 'zod';
import {
  McpServerConfigSchema,
  McpServerNameSchema,
  type McpServerConfig,
} from '../../shared/settings/mcp-settings.js';

/** One entry of the `{"mcpServers": {...}}` file shared by Claude Desktop, OpenManus, Cursor and others. */
const ExternalServerSchema = z.object({
  type: z.enum(['stdio', 'sse', 'http', 'streamable-http', 'streamableHttp', 'streamable_http']).optional(),
  command: z.string().min(1).optional(),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  url: z.string().optional(),
  headers: z.record(z.string(), z.string()).optional(),
  disabled: z.boolean().optional(),
});
type ExternalServer = z.infer<typeof ExternalServerSchema>;

const ExternalConfigSchema = z.object({ mcpServers: z.record(z.string(), z.unknown()) });

export class McpConfigFileError extends Error {
  constructor(problems: string[]) {
    super(`the MCP config file is not valid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'McpConfigFileError';
  }
}

/** An entry of the file that was not imported, and why (its name JSON-quoted: it may hold anything). */
export interface SkippedMcpServer {
  name: string;
  reason: string;
}

export interface McpConfigFileServers {
  servers: Record<string, McpServerConfig>;
  skipped: SkippedMcpServer[];
}

/**
 * The servers of a file, each checked as `mcp add` checks one (its name, its command free of control characters);
 * a bad entry is skipped with its reason and the good ones still come. A stdio server is marked unconfirmed: it
 * is not started until the person has seen its command. Throws only when the file itself is unusable.
 */
export function parseMcpConfigFile(text: string): McpConfigFileServers {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new McpConfigFileError([`not JSON: ${(error as Error).message}`]);
  }
  const file = ExternalConfigSchema.safeParse(json);
  if (!file.success) throw new McpConfigFileError(['expected an object with a "mcpServers" object']);
  const servers: Record<string, McpServerConfig> = {};
  const skipped: SkippedMcpServer[] = [];
  for (const [name, raw] of Object.entries(file.data.mcpServers)) {
    const validName = McpServerNameSchema.safeParse(name);
    const entry = ExternalServerSchema.safeParse(raw);
    const config = entry.success ? McpServerConfigSchema.safeParse(toInternal(entry.data)) : entry;
    if (!validName.success) skipped.push({ name, reason: validName.error.issues[0].message });
    else if (!config.success) skipped.push({ name, reason: z.prettifyError(config.error).replace(/\n/g, '; ') });
    else servers[name] = config.data.type === 'stdio' ? { ...config.data, unconfirmed: true } : config.data;
  }
  return { servers, skipped };
}

function toInternal(entry: ExternalServer): unknown {
  const enabled = !entry.disabled;
  if (entry.url && !entry.command) {
    const type =
      entry.type === 'sse' ? 'sse' : entry.type && entry.type !== 'stdio' ? 'http' : guessRemoteType(entry.url);
    return { type, url: entry.url, headers: entry.headers ?? {}, enabled };
  }
  return { type: 'stdio', command: entry.command, args: entry.args, env: entry.env, cwd: entry.cwd, enabled };
}

/** Without a type, a URL ending in /sse is the older SSE transport; anything else is streamable HTTP. */
function guessRemoteType(url: string): 'sse' | 'http' {
  return /\/sse\/?$/.test(new URL(url, 'http://localhost').pathname) ? 'sse' : 'http';
}

export function formatMcpConfigFile(servers: Record<string, McpServerConfig>): string {
  const mcpServers = Object.fromEntries(Object.entries(servers).map(([name, config]) => [name, toExternal(config)]));
  return `${JSON.stringify({ mcpServers }, null, 2)}\n`;
}

function toExternal(config: McpServerConfig): ExternalServer {
  const disabled = config.enabled ? {} : { disabled: true };
  if (config.type === 'stdio') {
    return {
      command: config.command,
      args: config.args,
      ...(Object.keys(config.env).length > 0 ? { env: config.env } : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      ...disabled,
    };
  }
  return {
    type: config.type,
    url: config.url,
    ...(Object.keys(config.headers).length > 0 ? { headers: config.headers } : {}),
    ...disabled,
  };
}
