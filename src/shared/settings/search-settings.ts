import { z } from 'zod';

export const SEARCH_ENGINES = ['duckduckgo', 'bing', 'google', 'baidu', 'brave', 'tavily', 'searxng'] as const;
export const SearchEngineNameSchema = z.enum(SEARCH_ENGINES);
export type SearchEngineName = z.infer<typeof SearchEngineNameSchema>;

export const SearchEngineConfigSchema = z.object({
  /** override of the engine's endpoint (tests point it at a local fixture server) */
  baseUrl: z.string().optional(),
  apiKey: z.string().optional(),
  /** Google Programmable Search engine id */
  cx: z.string().optional(),
});
export type SearchEngineConfig = z.infer<typeof SearchEngineConfigSchema>;

export const SearchSettingsSchema = z.object({
  engine: SearchEngineNameSchema.default('duckduckgo'),
  fallbackEngines: z.array(SearchEngineNameSchema).default(['bing', 'baidu']),
  engines: z.partialRecord(SearchEngineNameSchema, SearchEngineConfigSchema).default({}),
  retriesPerEngine: z.number().int().min(1).default(2),
  lang: z.string().optional(),
  country: z.string().optional(),
  fetchTimeoutMs: z.number().int().positive().default(15_000),
  /** first wait between two tries of one engine; doubles on each further try */
  retryDelayMs: z.number().int().nonnegative().default(1_000),
  /** a fetched page is cut to this many characters of text */
  maxContentLength: z.number().int().positive().default(10_000),
  /** bytes read from a fetched page or an engine reply at most */
  maxResponseBytes: z.number().int().positive().default(3_000_000),
  /** sent by the HTML engines and page fetches; some engines refuse unknown agents */
  userAgent: z
    .string()
    .default('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36'),
});
export type SearchSettings = z.infer<typeof SearchSettingsSchema>;
