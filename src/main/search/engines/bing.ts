import { parse } from 'node-html-parser';
import type { SearchEngine, SearchResult } from '../search-types.js';
import { endpointUrl, fetchResultsPage, refuseBotCheck } from './engine-helpers.js';

const BOT_CHECK_MARKERS = ['b_captcha', 'captcha-container'];
const DEFAULT_BASE_URL = 'https://www.bing.com/search';
const SNIPPET_SELECTORS = ['.b_caption p', 'p.b_lineclamp2', 'p.b_lineclamp3', 'p.b_lineclamp4', '.b_algoSlug', 'p'];

/** Bing may wrap result links as /ck/a?...&u=a1<base64url of the target>. */
function unwrapRedirect(href: string): string {
  try {
    const url = new URL(href, 'https://www.bing.com');
    const encoded = url.pathname === '/ck/a' ? url.searchParams.get('u') : null;
    if (!encoded?.startsWith('a1')) return url.href;
    return Buffer.from(encoded.slice(2), 'base64url').toString('utf8');
  } catch {
    return href;
  }
}

export function parseBingHtml(html: string): SearchResult[] {
  return parse(html)
    .querySelectorAll('li.b_algo')
    .flatMap((result) => {
      const link = result.querySelector('h2 a');
      const href = link?.getAttribute('href');
      if (!link || !href) return [];
      const snippetNode = SNIPPET_SELECTORS.map((selector) => result.querySelector(selector)).find(Boolean);
      return [
        {
          title: link.text.trim(),
          url: unwrapRedirect(href),
          snippet: (snippetNode?.text ?? '').replace(/\s+/g, ' ').trim(),
        },
      ];
    });
}

export const bingEngine: SearchEngine = {
  name: 'bing',
  async search(call) {
    const { query, lang, country, numResults } = call.query;
    const url = endpointUrl(call.config.baseUrl ?? DEFAULT_BASE_URL, {
      q: query,
      count: numResults,
      setlang: lang,
      cc: country,
    });
    const html = await fetchResultsPage(url, call);
    refuseBotCheck(html, 'Bing', BOT_CHECK_MARKERS);
    return parseBingHtml(html).slice(0, numResults);
  },
};
