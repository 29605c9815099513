import { clipText, markdownWithin } from '../browser/html-to-markdown.js';
import { fetchText } from './http-fetch.js';
import type { GuardedFetch } from '../net/guarded-fetch.js';
import type { SearchSettings } from '../../shared/settings/search-settings.js';

const FETCHABLE_SCHEMES = new Set(['http:', 'https:']);

/**
 * A result page's readable text (HTML → Markdown), clipped to the content limit. A result URL is the web's word, not
 * the person's: it and every redirect go through `guardedFetch` (the egress policy), whatever the engine's address.
 */
export async function fetchPageText(
  url: string,
  settings: SearchSettings,
  signal: AbortSignal,
  guardedFetch: GuardedFetch,
): Promise<string> {
  if (!FETCHABLE_SCHEMES.has(new URL(url).protocol)) throw new Error(`not an http(s) URL: ${url}`);
  const page = await fetchText(url, {
    signal,
    fetch: guardedFetch,
    timeoutMs: settings.fetchTimeoutMs,
    maxBytes: settings.maxResponseBytes,
    headers: { 'User-Agent': settings.userAgent, Accept: 'text/html,text/plain;q=0.9,*/*;q=0.5' },
  });
  const type = page.contentType.toLowerCase();
  let text: string;
  if (type.includes('html') || (!type && /^\s*</.test(page.text)))
    text = markdownWithin(page.text, settings.maxContentLength);
  else if (type.startsWith('text/') || type.includes('json') || type.includes('xml')) {
    text = clipText(page.text.trim(), settings.maxContentLength);
  } else return `(${type || 'unknown'} content, not text)`;
  const cut = page.truncated ? '\n\n[page was larger than the download limit; only its start was read]' : '';
  return text + cut;
}
