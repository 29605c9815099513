/** Links that only exist to hang a click handler on: clicking them runs the page's own script, nothing new. */
const PLACEHOLDER_SCRIPT_HREF = /^javascript:\s*(void\s*\(?\s*0\s*\)?\s*;?|;)?\s*$/i;

export class RefusedUrlError extends Error {
  override readonly name = 'RefusedUrlError';
}

function schemeOf(url: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):/i.exec(url.trim())?.[1]?.toLowerCase();
}

/** A URL the agent asked for, made absolute (https:// is assumed for a bare host), or a refusal naming the setting. */
export function checkNavigableUrl(raw: string, allowedSchemes: string[]): string {
  const text = raw.trim();
  if (!text) throw new RefusedUrlError('The URL is empty.');
  const scheme = schemeOf(text);
  const hasHostPort = /^[^/:]+:\d+(\/|$)/.test(text);
  if (!scheme || hasHostPort) return checkNavigableUrl(`https://${text}`, allowedSchemes);
  refuseUnlessAllowed(scheme, text, allowedSchemes);
  try {
    return new URL(text).href;
  } catch {
    throw new RefusedUrlError(`"${text}" is not a valid URL.`);
  }
}

/** Whether a link's href may be followed by a click; relative links resolve against the page. */
export function checkLinkTarget(href: string, pageUrl: string, allowedSchemes: string[]): void {
  if (PLACEHOLDER_SCRIPT_HREF.test(href.trim())) return;
  let absolute: string;
  try {
    absolute = new URL(href, pageUrl).href;
  } catch {
    return;
  }
  const scheme = schemeOf(absolute);
  if (scheme) refuseUnlessAllowed(scheme, href, allowedSchemes);
}

/** Where the browser itself puts a tab: a new tab, and the page Chromium shows when a load fails. */
const BROWSER_OWN_LOCATIONS = /^(about:blank$|chrome-error:\/\/chromewebdata\/)/;

/** Whether the page may stay where it landed (a redirect or script can move it anywhere). */
export function isAllowedLocation(url: string, allowedSchemes: string[]): boolean {
  if (BROWSER_OWN_LOCATIONS.test(url)) return true;
  const scheme = schemeOf(url);
  return !!scheme && allowedSchemes.map((allowed) => allowed.toLowerCase()).includes(scheme);
}

function refuseUnlessAllowed(scheme: string, url: string, allowedSchemes: string[]): void {
  if (allowedSchemes.map((allowed) => allowed.toLowerCase()).includes(scheme)) return;
  const shown = url.length > 100 ? `${url.slice(0, 100)}…` : url;
  throw new RefusedUrlError(
    `Refused to open ${shown}: the ${scheme}: scheme is not allowed (allowed: ${allowedSchemes.join(', ')}). ` +
      'The user can allow more schemes in Settings → browser.allowedSchemes.',
  );
}
