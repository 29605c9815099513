import { z } from 'zod';
import type { SearchEngine } from '../search-types.js';
import { endpointUrl, fetchApiJson, plainText, requireSetting } from './engine-helpers.js';

const SearxngReplySchema = z.object({
  results: z.array(z.object({ title: z.string(), url: z.string(), content: z.string().optional() })),
});

/** A SearXNG instance (self-hosted or public) with the JSON format enabled. */
export const searxngEngine: SearchEngine = {
  name: 'searxng',
  async search(call) {
    const instance = requireSetting(call.config.baseUrl, 'searxng', 'the URL of a SearXNG instance (baseUrl)');
    const { query, lang, numResults } = call.query;
    const url = endpointUrl(new URL('search', instance.endsWith('/') ? instance : `${instance}/`).href, {
      q: query,
      format: 'json',
      language: lang,
    });
    const reply = SearxngReplySchema.parse(await fetchApiJson(url, call));
    return reply.results
      .map((item) => ({ title: plainText(item.title), url: item.url, snippet: plainText(item.content) }))
      .slice(0, numResults);
  },
};
