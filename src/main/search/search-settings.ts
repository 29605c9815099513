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

export const SearchSettingsSchema = z.object({
  engine: SearchEngineNameSchema.default('duckduckgo'),
  fallbackEngines: z.array(SearchEngineNameSchema).default(['bing', 'baidu']),
  engines: z.partialRecord(SearchEngineNameSchema, SearchEngineConfigSchema).default({}),
  retriesPerEngine: z.number().int().min(1).default(2),
  lang: z.string().optional(),
  country: z.string().optional(),
  fetchTimeoutMs: z.number().int().positive().default(15_000),
});
export type SearchSettings = z.infer<typeof SearchSettingsSchema>;
