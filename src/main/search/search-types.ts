import { z } from 'zod';
import type { SearchEngineConfig, SearchEngineName, SearchSettings } from '../../shared/settings/search-settings.js';

export const SearchResultSchema = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  /** the page's text, when fetch_content asked for it */
  content: z.string().optional(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export interface SearchQuery {
  query: string;
  numResults: number;
  lang?: string;
  country?: string;
}

/** What one engine call gets: the query, its own configuration and the shared search settings. */
export interface EngineCall {
  query: SearchQuery;
  config: SearchEngineConfig;
  settings: SearchSettings;
  signal: AbortSignal;
}

export interface SearchEngine {
  name: SearchEngineName;
  search(call: EngineCall): Promise<SearchResult[]>;
}

/** The engine lacks a key, id or URL: trying again cannot help. */
export class EngineNotConfiguredError extends Error {
  override readonly name = 'EngineNotConfiguredError';
}
