import { z } from 'zod';
import type { SearchEngine } from '../search-types.js';
import { endpointUrl, fetchApiJson, requireSetting } from './engine-helpers.js';

const DEFAULT_BASE_URL = 'https://www.googleapis.com/customsearch/v1';
/** the Programmable Search API returns at most 10 results a request */
const MAX_PER_REQUEST = 10;

const GoogleReplySchema = z.object({
  items: z.array(z.object({ title: z.string(), link: z.string(), snippet: z.string().optional() })).default([]),
});

export const googleEngine: SearchEngine = {
  name: 'google',
  async search(call) {
    const key = requireSetting(call.config.apiKey, 'google', 'an API key (apiKey)');
    const cx = requireSetting(call.config.cx, 'google', 'a Programmable Search engine id (cx)');
    const { query, lang, country, numResults } = call.query;
    const url = endpointUrl(call.config.baseUrl ?? DEFAULT_BASE_URL, {
      key,
      cx,
      q: query,
      num: Math.min(numResults, MAX_PER_REQUEST),
      hl: lang,
      gl: country,
    });
    const reply = GoogleReplySchema.parse(await fetchApiJson(url, call));
    return reply.items
      .map((item) => ({ title: item.title, url: item.link, snippet: item.snippet ?? '' }))
      .slice(0, numResults);
  },
};
