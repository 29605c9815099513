import { z } from 'zod';

const common = {
  enabled: z.boolean().default(true),
  /** per tool: 'auto' runs it, 'ask' asks first; tools not listed follow the global policy */
  toolApproval: z.record(z.string(), z.enum(['auto', 'ask'])).default({}),
  timeoutMs: z.number().int().positive().default(30_000),
  /** how long connecting (spawn + initialize + listing) may take before the server counts as failed */
  connectTimeoutMs: z.number().int().positive().default(20_000),
};

export const McpServerConfigSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('stdio'),
    command: z.string().min(1),
    args: z.array(z.string()).default([]),
    env: z.record(z.string(), z.string()).default({}),
    cwd: z.string().optional(),
    ...common,
  }),
  z.object({
    type: z.literal('sse'),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
    ...common,
  }),
  z.object({
    type: z.literal('http'),
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).default({}),
    ...common,
  }),
]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

export const McpSettingsSchema = z.object({
  servers: z.record(z.string(), McpServerConfigSchema).default({}),
});
export type McpSettings = z.infer<typeof McpSettingsSchema>;
