import { parse } from 'node-html-parser';
import type { SearchEngine, SearchResult } from '../search-types.js';
import { endpointUrl, fetchResultsPage, refuseBotCheck } from './engine-helpers.js';

const BOT_CHECK_MARKERS = ['百度安全验证', 'wappass.baidu.com'];
const DEFAULT_BASE_URL = 'https://www.baidu.com/s';
const SNIPPET_SELECTORS = ['.c-abstract', '[class*="content-right"]', '.c-span-last', '.c-row'];

export function parseBaiduHtml(html: string, baseUrl = DEFAULT_BASE_URL): SearchResult[] {
  return parse(html)
    .querySelectorAll('div.result, div.c-container')
    .flatMap((result) => {
      const link = result.querySelector('h3 a');
      // `mu` holds the real target; the link itself is a baidu.com/link redirect
      const href = result.getAttribute('mu') || link?.getAttribute('href');
      if (!link || !href) return [];
      const snippetNode = SNIPPET_SELECTORS.map((selector) => result.querySelector(selector)).find(Boolean);
      return [
        {
          title: link.text.replace(/\s+/g, ' ').trim(),
          url: new URL(href, baseUrl).href,
          snippet: (snippetNode?.text ?? '').replace(/\s+/g, ' ').trim(),
        },
      ];
    })
    .filter((result, index, all) => all.findIndex((other) => other.url === result.url) === index);
}

export const baiduEngine: SearchEngine = {
  name: 'baidu',
  async search(call) {
    const { query, numResults } = call.query;
    const base = call.config.baseUrl ?? DEFAULT_BASE_URL;
    const url = endpointUrl(base, { wd: query, rn: numResults, ie: 'utf-8' });
    const html = await fetchResultsPage(url, call);
    refuseBotCheck(html, 'Baidu', BOT_CHECK_MARKERS);
    return parseBaiduHtml(html, base).slice(0, numResults);
  },
};
