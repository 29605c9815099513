import { parse } from 'node-html-parser';
import type { EngineCall } from '../search-types.js';
import { EngineNotConfiguredError } from '../search-types.js';
import { fetchJson, fetchText } from '../http-fetch.js';

/** `base` (the configured override or the engine's public endpoint) with query parameters; empty ones are left out. */
export function endpointUrl(base: string, params: Record<string, string | number | undefined>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
  }
  return url.href;
}

export function requireSetting(value: string | undefined, engine: string, what: string): string {
  if (!value) throw new EngineNotConfiguredError(`${engine} needs ${what} (Settings → search.engines.${engine}).`);
  return value;
}

/** An HTML results page, fetched as a browser would ask for it. */
export async function fetchResultsPage(url: string, call: EngineCall): Promise<string> {
  const page = await fetchText(url, {
    signal: call.signal,
    timeoutMs: call.settings.fetchTimeoutMs,
    maxBytes: call.settings.maxResponseBytes,
    headers: {
      'User-Agent': call.settings.userAgent,
      Accept: 'text/html,application/xhtml+xml',
      'Accept-Language': call.query.lang ?? 'en',
    },
  });
  return page.text;
}

/** The engine answered with a bot check instead of results: retrying soon will not help. */
export class EngineBlockedError extends Error {
  override readonly name = 'EngineBlockedError';
}

/** Throws EngineBlockedError when `html` contains one of the engine's bot-check markers. */
export function refuseBotCheck(html: string, engine: string, markers: string[]): void {
  if (markers.some((marker) => html.includes(marker))) {
    throw new EngineBlockedError(`${engine} answered with a bot check (captcha) instead of results`);
  }
}

/** A JSON API reply. */
export function fetchApiJson(
  url: string,
  call: EngineCall,
  init: { headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string } = {},
): Promise<unknown> {
  return fetchJson(url, {
    signal: call.signal,
    timeoutMs: call.settings.fetchTimeoutMs,
    maxBytes: call.settings.maxResponseBytes,
    headers: { Accept: 'application/json', ...init.headers },
    method: init.method,
    body: init.body,
  });
}

/** Plain text of an HTML fragment (API snippets carry <strong> and entities). */
export function plainText(html: string | undefined | null): string {
  if (!html) return '';
  return parse(html).text.replace(/\s+/g, ' ').trim();
}
