import { SECRET_MASK } from '../../shared/contract.js';
import type { AppSettings } from '../config/settings.js';

type SecretVisitor = (value: string, path: string) => string | undefined;

const VISIBLE_TAIL = 4;
const MIN_LENGTH_TO_SHOW_TAIL = 12;

/** `sk-…abcd` style: enough to tell keys apart, never enough to use one. */
export function maskSecret(secret: string): string {
  if (secret.length < MIN_LENGTH_TO_SHOW_TAIL) return SECRET_MASK;
  return SECRET_MASK + secret.slice(-VISIBLE_TAIL);
}

function isMasked(value: string): boolean {
  return value.startsWith(SECRET_MASK);
}

function mapRecord(record: Record<string, string>, path: string, visit: SecretVisitor): Record<string, string> {
  const mapped: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) {
    const next = visit(value, `${path}.${key}`);
    if (next !== undefined) mapped[key] = next;
  }
  return mapped;
}

/** Rewrites every secret in the settings (API keys, MCP env and headers, proxy password) with `visit`. */
function mapSecrets(settings: AppSettings, visit: SecretVisitor): AppSettings {
  const llms = Object.fromEntries(
    Object.entries(settings.llms).map(([name, llm]) => [
      name,
      { ...llm, apiKey: llm.apiKey === undefined ? undefined : visit(llm.apiKey, `llms.${name}.apiKey`) },
    ]),
  );
  const engines = Object.fromEntries(
    Object.entries(settings.search.engines).map(([name, engine]) => [
      name,
      engine && {
        ...engine,
        apiKey: engine.apiKey === undefined ? undefined : visit(engine.apiKey, `search.${name}.apiKey`),
      },
    ]),
  );
  const servers = Object.fromEntries(
    Object.entries(settings.mcp.servers).map(([name, server]) => [
      name,
      server.type === 'stdio'
        ? { ...server, env: mapRecord(server.env, `mcp.${name}.env`, visit) }
        : { ...server, headers: mapRecord(server.headers, `mcp.${name}.headers`, visit) },
    ]),
  );
  const proxy = settings.browser.proxy;
  return {
    ...settings,
    llms,
    search: { ...settings.search, engines },
    mcp: { ...settings.mcp, servers },
    browser: {
      ...settings.browser,
      proxy: proxy && {
        ...proxy,
        password: proxy.password === undefined ? undefined : visit(proxy.password, 'browser.proxy.password'),
      },
    },
  };
}

/** What the renderer may see. */
export function maskSettings(settings: AppSettings): AppSettings {
  return mapSecrets(settings, maskSecret);
}

/** Settings edited by the renderer: masked secrets sent back unchanged take the stored value again. */
export function unmaskSettings(incoming: AppSettings, stored: AppSettings): AppSettings {
  const storedSecrets = new Map<string, string>();
  mapSecrets(stored, (value, path) => {
    storedSecrets.set(path, value);
    return value;
  });
  return mapSecrets(incoming, (value, path) => (isMasked(value) ? storedSecrets.get(path) : value));
}
