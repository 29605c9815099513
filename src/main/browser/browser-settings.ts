import { z } from 'zod';

export const BrowserSettingsSchema = z.object({
  headless: z.boolean().default(true),
  /** a Chrome/Chromium/Edge binary; found automatically when unset */
  executablePath: z.string().optional(),
  /** a Playwright channel such as chrome or msedge */
  channel: z.string().optional(),
  /** connect to a running browser instead of launching one */
  cdpUrl: z.string().optional(),
  proxy: z.object({ server: z.string(), username: z.string().optional(), password: z.string().optional() }).optional(),
  extraArgs: z.array(z.string()).default([]),
  viewport: z
    .object({ width: z.number().int().positive(), height: z.number().int().positive() })
    .default({ width: 1280, height: 800 }),
  /** URL schemes the agent may open; http and https only unless the user allows more */
  allowedSchemes: z.array(z.string()).default(['http', 'https']),
  maxContentLength: z.number().int().positive().default(20_000),
});
export type BrowserSettings = z.infer<typeof BrowserSettingsSchema>;
