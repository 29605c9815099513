import { z } from 'zod';
import { LlmConfigSchema } from './llm-config.js';
import { SandboxSettingsSchema } from './sandbox-settings.js';
import { BrowserSettingsSchema } from './browser-settings.js';
import { SearchSettingsSchema } from './search-settings.js';
import { McpSettingsSchema } from './mcp-settings.js';
import { ApprovalSettingsSchema } from './approval-settings.js';
import { ImageDetailSchema } from './vision-settings.js';
import { PlanActSettingsSchema } from './plan-act-settings.js';
import { PlanningSettingsSchema } from './planning-settings.js';
import { UploadSettingsSchema } from './upload-settings.js';

export const AgentSettingsSchema = z.object({
  maxSteps: z.number().int().positive().default(20),
  /** tool output longer than this is cut with a note */
  maxObserve: z.number().int().positive().default(10_000),
  /** messages kept in an agent's memory */
  maxMessages: z.number().int().positive().default(100),
  /**
   * a session's token budget: once its model calls (every run, agent, planner and summary) have used this many
   * tokens as the provider reports them, its run stops before the next call; unset, no limit
   */
  maxTotalTokens: z.number().int().positive().optional(),
  /**
   * a tool result cut for the conversation (past 100,000 characters) is also kept whole in the workspace, under
   * .manus/results/, while the workspace quota has room for it
   */
  keepFullResults: z.boolean().default(false),
});
export type AgentSettings = z.infer<typeof AgentSettingsSchema>;

/** Everything configurable, as stored under the `settings` key and resolved for a session. */
export const AppSettingsSchema = z
  .object({
    /** named LLM providers; `defaultLlm` names the one sessions use */
    llms: z.record(z.string(), LlmConfigSchema).default({}),
    defaultLlm: z.string().optional(),
    /** the provider that describes images (screenshots, charts) for a session model that cannot see them */
    visionLlm: z.string().optional(),
    /** the `detail` of images sent to models that see, unless a provider sets its own */
    imageDetail: ImageDetailSchema.default('auto'),
    agent: AgentSettingsSchema.default(AgentSettingsSchema.parse({})),
    sandbox: SandboxSettingsSchema.default(SandboxSettingsSchema.parse({})),
    browser: BrowserSettingsSchema.default(BrowserSettingsSchema.parse({})),
    search: SearchSettingsSchema.default(SearchSettingsSchema.parse({})),
    mcp: McpSettingsSchema.default(McpSettingsSchema.parse({})),
    approval: ApprovalSettingsSchema.default(ApprovalSettingsSchema.parse({})),
    planning: PlanningSettingsSchema.default(PlanningSettingsSchema.parse({})),
    planAct: PlanActSettingsSchema.default(PlanActSettingsSchema.parse({})),
    uploads: UploadSettingsSchema.default(UploadSettingsSchema.parse({})),
  })
  .superRefine((settings, ctx) => {
    // a vision model that is not a provider would leave images out silently: refuse it where it is set
    if (settings.visionLlm !== undefined && !settings.llms[settings.visionLlm]) {
      ctx.addIssue({
        code: 'custom',
        path: ['visionLlm'],
        message: `"${settings.visionLlm}" is not a configured provider (add it under llms first)`,
      });
    }
  });
export type AppSettings = z.infer<typeof AppSettingsSchema>;
