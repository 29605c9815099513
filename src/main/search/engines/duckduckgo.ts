import { parse } from 'node-html-parser';
import type { SearchEngine, SearchResult } from '../search-types.js';
import { endpointUrl, fetchResultsPage, refuseBotCheck } from './engine-helpers.js';

const BOT_CHECK_MARKERS = ['anomaly-modal', 'bots use DuckDuckGo too'];
const DEFAULT_BASE_URL = 'https://html.duckduckgo.com/html/';

/** DuckDuckGo links go through a redirect (/l/?uddg=<target>); the target is what the agent wants. */
function unwrapRedirect(href: string): string {
  try {
    const url = new URL(href, 'https://duckduckgo.com');
    return url.searchParams.get('uddg') ?? url.href;
  } catch {
    return href;
  }
}

export function parseDuckDuckGoHtml(html: string): SearchResult[] {
  return parse(html)
    .querySelectorAll('.result')
    .filter((result) => !result.classList.contains('result--ad'))
    .flatMap((result) => {
      const link = result.querySelector('a.result__a');
      const href = link?.getAttribute('href');
      if (!link || !href) return [];
      const snippet = result.querySelector('.result__snippet')?.text ?? '';
      return [{ title: link.text.trim(), url: unwrapRedirect(href), snippet: snippet.replace(/\s+/g, ' ').trim() }];
    });
}

export const duckDuckGoEngine: SearchEngine = {
  name: 'duckduckgo',
  async search(call) {
    const { query, lang, country, numResults } = call.query;
    const region = country && lang ? `${country}-${lang}`.toLowerCase() : undefined;
    const url = endpointUrl(call.config.baseUrl ?? DEFAULT_BASE_URL, { q: query, kl: region });
    const html = await fetchResultsPage(url, call);
    refuseBotCheck(html, 'DuckDuckGo', BOT_CHECK_MARKERS);
    return parseDuckDuckGoHtml(html).slice(0, numResults);
  },
};
