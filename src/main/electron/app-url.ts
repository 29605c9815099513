/** Whether `url` is the app's own page (the dev server in development, the packaged file otherwise). */
export function isAppUrl(url: string, appUrl: string): boolean {
  try {
    const target = new URL(url);
    const own = new URL(appUrl);
    return target.protocol === own.protocol && target.host === own.host && target.pathname === own.pathname;
  } catch {
    return false;
  }
}

const EXTERNAL_SCHEMES = new Set(['http:', 'https:']);

/** Only web links may leave for the system browser: never file:, javascript:, or custom schemes. */
export function isExternalWebUrl(url: string): boolean {
  try {
    return EXTERNAL_SCHEMES.has(new URL(url).protocol);
  } catch {
    return false;
  }
}
