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
  /**
   * Let what the agent opens or fetches (pages, search result pages, an MCP server's sign-in metadata) reach
   * loopback, link-local and private-network addresses (this computer's servers, the router); off so that a
   * prompt-injected page cannot make the agent drive them
   */
  allowPrivateNetwork: z.boolean().default(false),
  maxContentLength: z.number().int().positive().default(20_000),
  /**
   * Chromium's own process sandbox: auto is on wherever it can start (see chromium-sandbox.ts). Saved settings
   * hold the old default `false`, indistinguishable from a choice, so false reads as auto and true as on.
   */
  chromiumSandbox: z
    .preprocess((value) => (value === true ? 'on' : value === false ? 'auto' : value), z.enum(['auto', 'on', 'off']))
    .default('auto'),
  launchTimeoutMs: z.number().int().positive().default(30_000),
  navigationTimeoutMs: z.number().int().positive().default(30_000),
  /** clicks, typing and selections give up after this long */
  actionTimeoutMs: z.number().int().positive().default(10_000),
  /** JPEG quality of the screenshot taken after each action */
  screenshotQuality: z.number().int().min(1).max(100).default(70),
  /** elements this many pixels beyond the viewport are listed too */
  viewportExpansion: z.number().int().nonnegative().default(0),
  /** at most this many interactive elements are listed in the page state */
  maxElements: z.number().int().positive().default(250),
  /** workspace folder downloads are saved into */
  downloadsFolder: z.string().default('downloads'),
  /** a download taking longer than this is cancelled and deleted */
  downloadTimeoutMs: z.number().int().positive().default(60_000),
  /** tabs a session keeps open; more that a page opens (pop-ups) are closed as they open */
  maxTabs: z.number().int().positive().default(10),
  userAgent: z.string().optional(),
});
export type BrowserSettings = z.infer<typeof BrowserSettingsSchema>;
