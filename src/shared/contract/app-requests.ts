import { z } from 'zod';
import { LlmConfigSchema } from '../settings/llm-config.js';
import { McpServerConfigSchema } from '../settings/mcp-settings.js';
import { StdioLaunchSchema } from '../settings/mcp-launch.js';

/**
 * Requests of the settings, sandbox and workspace screens (issue 8). Listed in the one CONTRACT table in
 * ../contract.ts like every other request.
 */

export const TestLlmRequestSchema = z.object({
  /** the provider being edited: a masked key is taken from its stored settings */
  name: z.string().optional(),
  config: LlmConfigSchema,
});
export const LlmTestReportSchema = z.object({
  ok: z.boolean(),
  models: z.array(z.string()).optional(),
  error: z.string().optional(),
  code: z.string().optional(),
  elapsedMs: z.number(),
});
export type LlmTestReport = z.infer<typeof LlmTestReportSchema>;

export const McpServerStateSchema = z.object({
  name: z.string(),
  type: z.enum(['stdio', 'sse', 'http']),
  status: z.string(),
  error: z.string().optional(),
  tools: z.array(z.object({ name: z.string(), description: z.string().optional() })),
  prompts: z.number().int(),
  resources: z.number().int(),
  /** remote servers: OAuth sign-in, as far as the settings screen shows it (tokens never leave the core) */
  auth: z
    .object({
      signedIn: z.boolean(),
      /** who the server's ID token names, when it sent one */
      account: z.string().optional(),
      /** ms since epoch */
      expiresAt: z.number().optional(),
      signInRequired: z.boolean(),
      signIn: z
        .object({
          state: z.enum(['waiting', 'failed']),
          authorizationUrl: z.string().optional(),
          error: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
});
export type McpServerState = z.infer<typeof McpServerStateSchema>;

export const ImportMcpRequestSchema = z.object({ text: z.string().min(2).max(1_000_000) });
export const ImportedMcpSchema = z.object({
  servers: z.record(z.string(), McpServerConfigSchema),
  /** entries of the file that were not imported (a bad name, a command with control characters...) */
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
});
export const ConfirmMcpRequestSchema = z.object({ name: z.string().min(1), launch: StdioLaunchSchema });

export const SandboxBuildMethodSchema = z.enum(['dockerfile', 'offline', 'pull']);
export const SandboxBuildJobSchema = z.object({
  state: z.enum(['idle', 'running', 'done', 'failed']),
  method: SandboxBuildMethodSchema.optional(),
  /** the last lines of the build log */
  lines: z.array(z.string()),
  /** 0..100 when the build reports steps or layer progress */
  percent: z.number().min(0).max(100).optional(),
  error: z.string().optional(),
});
export type SandboxBuildJob = z.infer<typeof SandboxBuildJobSchema>;
export const SandboxStateSchema = z.object({
  engine: z.object({ reachable: z.boolean(), version: z.string().optional(), error: z.string().optional() }),
  image: z.object({ name: z.string(), present: z.boolean(), sizeMb: z.number().optional() }),
  build: SandboxBuildJobSchema,
});
export type SandboxState = z.infer<typeof SandboxStateSchema>;

export const WorkspaceFileKindSchema = z.enum(['text', 'code', 'image', 'csv', 'html', 'pdf', 'other']);
export type WorkspaceFileKind = z.infer<typeof WorkspaceFileKindSchema>;
export const WorkspaceEntrySchema = z.object({
  /** relative to the workspace root, with / */
  path: z.string(),
  size: z.number(),
  modifiedAt: z.number(),
  kind: WorkspaceFileKindSchema,
});
export type WorkspaceEntry = z.infer<typeof WorkspaceEntrySchema>;
export const WorkspaceListingSchema = z.object({
  root: z.string(),
  files: z.array(WorkspaceEntrySchema),
  /** more files than the listing holds */
  truncated: z.boolean(),
});
export type WorkspaceListing = z.infer<typeof WorkspaceListingSchema>;
export const WorkspaceFileSchema = z.object({
  path: z.string(),
  kind: WorkspaceFileKindSchema,
  mimeType: z.string(),
  size: z.number(),
  encoding: z.enum(['text', 'base64']),
  content: z.string(),
  /** text cut at the preview limit */
  truncated: z.boolean(),
});
export type WorkspaceFile = z.infer<typeof WorkspaceFileSchema>;
