import { z } from 'zod';
import type { SearchEngine } from '../search-types.js';
import { fetchApiJson, requireSetting } from './engine-helpers.js';

const DEFAULT_BASE_URL = 'https://api.tavily.com/search';

const TavilyReplySchema = z.object({
  results: z.array(z.object({ title: z.string(), url: z.string(), content: z.string().optional() })),
});

export const tavilyEngine: SearchEngine = {
  name: 'tavily',
  async search(call) {
    const apiKey = requireSetting(call.config.apiKey, 'tavily', 'an API key (apiKey)');
    // Tavily's country filter takes full country names, not the codes the other engines use: not sent
    const { query, numResults } = call.query;
    const body = JSON.stringify({ query, max_results: numResults, search_depth: 'basic' });
    const reply = TavilyReplySchema.parse(
      await fetchApiJson(call.config.baseUrl ?? DEFAULT_BASE_URL, call, {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
      }),
    );
    return reply.results
      .map((item) => ({ title: item.title, url: item.url, snippet: item.content ?? '' }))
      .slice(0, numResults);
  },
};
