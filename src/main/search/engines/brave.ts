import { z } from 'zod';
import type { SearchEngine } from '../search-types.js';
import { endpointUrl, fetchApiJson, plainText, requireSetting } from './engine-helpers.js';

const DEFAULT_BASE_URL = 'https://api.search.brave.com/res/v1/web/search';
const MAX_PER_REQUEST = 20;

const BraveReplySchema = z.object({
  web: z
    .object({
      results: z.array(z.object({ title: z.string(), url: z.string(), description: z.string().optional() })),
    })
    .optional(),
});

export const braveEngine: SearchEngine = {
  name: 'brave',
  async search(call) {
    const apiKey = requireSetting(call.config.apiKey, 'brave', 'an API key (apiKey)');
    const { query, lang, country, numResults } = call.query;
    const url = endpointUrl(call.config.baseUrl ?? DEFAULT_BASE_URL, {
      q: query,
      count: Math.min(numResults, MAX_PER_REQUEST),
      country,
      search_lang: lang,
    });
    const reply = BraveReplySchema.parse(
      await fetchApiJson(url, call, { headers: { 'X-Subscription-Token': apiKey } }),
    );
    return (reply.web?.results ?? [])
      .map((item) => ({ title: plainText(item.title), url: item.url, snippet: plainText(item.description) }))
      .slice(0, numResults);
  },
};
