import { z } from 'zod';
import { LlmConfigSchema } from './llm-config.js';
import { SandboxSettingsSchema } from './sandbox-settings.js';
import { BrowserSettingsSchema } from './browser-settings.js';
import { SearchSettingsSchema } from './search-settings.js';
import { McpSettingsSchema } from './mcp-settings.js';
import { ApprovalSettingsSchema } from './approval-settings.js';
import { UploadSettingsSchema } from './upload-settings.js';

export const AgentSettingsSchema = z.object({
  maxSteps: z.number().int().positive().default(20),
  /** tool output longer than this is cut with a note */
  maxObserve: z.number().int().positive().default(10_000),
  /** messages kept in an agent's memory */
  maxMessages: z.number().int().positive().default(100),
});
export type AgentSettings = z.infer<typeof AgentSettingsSchema>;

/** Everything configurable, as stored under the `settings` key and resolved for a session. */
export const AppSettingsSchema = z.object({
  /** named LLM providers; `defaultLlm` names the one sessions use */
  llms: z.record(z.string(), LlmConfigSchema).default({}),
  defaultLlm: z.string().optional(),
  visionLlm: z.string().optional(),
  agent: AgentSettingsSchema.default(AgentSettingsSchema.parse({})),
  sandbox: SandboxSettingsSchema.default(SandboxSettingsSchema.parse({})),
  browser: BrowserSettingsSchema.default(BrowserSettingsSchema.parse({})),
  search: SearchSettingsSchema.default(SearchSettingsSchema.parse({})),
  mcp: McpSettingsSchema.default(McpSettingsSchema.parse({})),
  approval: ApprovalSettingsSchema.default(ApprovalSettingsSchema.parse({})),
  uploads: UploadSettingsSchema.default(UploadSettingsSchema.parse({})),
});
export type AppSettings = z.infer<typeof AppSettingsSchema>;
