import { parse as parseToml } from 'smol-toml';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { LlmConfigInput } from '../../shared/settings/llm-config.js';
import { SEARCH_ENGINES, type SearchEngineName } from '../../shared/settings/search-settings.js';
import type { McpServerConfig } from '../../shared/settings/mcp-settings.js';

/** The provider names OpenManus's `[llm]` and `[llm.vision]` become. */
export const IMPORTED_LLM = 'openmanus';
export const IMPORTED_VISION_LLM = 'openmanus-vision';

/** One key of the OpenManus file: where it went, or why it could not go anywhere. */
export interface ImportLine {
  from: string;
  to?: string;
  why?: string;
}

export interface OpenManusImport {
  settings: AppSettings;
  mapped: ImportLine[];
  skipped: ImportLine[];
}

type Table = Record<string, unknown>;

const isTable = (value: unknown): value is Table =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date);

/** Keys OpenManus has that have no setting here, with the reason said to the person. */
const NOT_MAPPED: Record<string, string> = {
  'browser.disable_security': 'the browser keeps its web security on (pages are untrusted)',
  'browser.wss_url': 'only a CDP URL (cdp_url) can attach to a running browser',
  'sandbox.image': 'the sandbox runs its own image, built with `manus sandbox build` (it holds the tool drivers)',
  'sandbox.work_dir': 'the workspace is always /workspace in the sandbox',
  'mcp.server_reference': 'the Manus MCP server is `manus mcp-server`',
  runflow: 'flows choose their agents per run: `manus flow --agents manus,data_analysis` (Plan-Act uses every agent)',
  daytona: 'Daytona sandboxes are not supported; code runs in Docker or locally',
};

/** `512m`, `1g` or a number of bytes as megabytes. */
function megabytes(value: unknown): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([kmg]?)b?$/i.exec(String(value).trim());
  if (!match) return undefined;
  const scale = { '': 1 / (1024 * 1024), k: 1 / 1024, m: 1, g: 1024 }[match[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
  return Math.round(Number(match[1]) * scale);
}

function engineName(value: unknown): SearchEngineName | undefined {
  const name = String(value).toLowerCase();
  return (SEARCH_ENGINES as readonly string[]).includes(name) ? (name as SearchEngineName) : undefined;
}

/** An `[llm]`-like table as a provider: OpenAI's own endpoint stays `openai`, Azure is `azure`, the rest compatible. */
function providerOf(table: Table, base: Table, from: string, lines: ImportLine[]): LlmConfigInput | undefined {
  const value = (key: string) => table[key] ?? base[key];
  if (typeof value('model') !== 'string') {
    lines.push({ from, why: 'it names no model' });
    return undefined;
  }
  const baseUrl = typeof value('base_url') === 'string' ? String(value('base_url')) : undefined;
  const apiType = String(value('api_type') ?? '').toLowerCase();
  const provider =
    apiType === 'azure'
      ? 'azure'
      : !baseUrl || /^https:\/\/api\.openai\.com(\/|$)/.test(baseUrl)
        ? 'openai'
        : 'compatible';
  return {
    provider,
    model: String(value('model')),
    ...(baseUrl && provider !== 'openai' ? { baseUrl } : {}),
    ...(typeof value('api_key') === 'string' && value('api_key') ? { apiKey: String(value('api_key')) } : {}),
    ...(typeof value('api_version') === 'string' ? { apiVersion: String(value('api_version')) } : {}),
    ...(typeof value('max_tokens') === 'number' ? { maxTokens: Number(value('max_tokens')) } : {}),
    ...(typeof value('max_input_tokens') === 'number' ? { contextWindow: Number(value('max_input_tokens')) } : {}),
    ...(typeof value('temperature') === 'number' ? { temperature: Number(value('temperature')) } : {}),
  };
}

/**
 * OpenManus's `config/config.toml` (and `config/mcp.json`) as this app's settings, on top of `current`: what each
 * key became, and what could not be taken and why. Secrets are plain here; saving the settings seals them.
 */
export function importOpenManusConfig(
  tomlText: string,
  current: AppSettings,
  mcpServers: Record<string, McpServerConfig> = {},
): OpenManusImport {
  const config = parseToml(tomlText) as Table;
  const next = structuredClone(current);
  const mapped: ImportLine[] = [];
  const skipped: ImportLine[] = [];
  const put = (from: string, to: string, apply: () => void) => {
    apply();
    mapped.push({ from, to });
  };

  for (const [section, body] of Object.entries(config)) {
    if (NOT_MAPPED[section]) {
      skipped.push({ from: `[${section}]`, why: NOT_MAPPED[section] });
      continue;
    }
    if (!isTable(body)) {
      skipped.push({ from: section, why: 'not a known section' });
      continue;
    }
    for (const [key, value] of Object.entries(body)) {
      const from = `[${section}] ${key}`;
      const reason = NOT_MAPPED[`${section}.${key}`];
      if (reason) {
        skipped.push({ from, why: reason });
        continue;
      }
      if (!mapKey(section, key, value, body, next, (to, apply) => put(from, to, apply), skipped, from))
        skipped.push({ from, why: `not a key OpenManus's ${section} section has` });
    }
  }
  for (const [name, server] of Object.entries(mcpServers)) {
    put(`mcp.json ${name}`, `mcp.servers.${name}`, () => (next.mcp.servers[name] = server));
  }
  return { settings: next, mapped, skipped };
}

type Put = (to: string, apply: () => void) => void;

/** Maps one key of a section; false when the section has no such key. */
function mapKey(
  section: string,
  key: string,
  value: unknown,
  body: Table,
  next: AppSettings,
  put: Put,
  skipped: ImportLine[],
  from: string,
): boolean {
  switch (section) {
    case 'llm':
      return mapLlmKey(key, value, body, next, put, skipped, from);
    case 'browser':
      return mapBrowserKey(key, value, next, put, skipped, from);
    case 'search':
      return mapSearchKey(key, value, next, put, skipped, from);
    case 'sandbox':
      return mapSandboxKey(key, value, next, put, skipped, from);
    default:
      skipped.push({ from, why: `[${section}] is not an OpenManus section this app knows` });
      return true;
  }
}

const LLM_KEYS = new Set([
  'model',
  'base_url',
  'api_key',
  'api_type',
  'api_version',
  'max_tokens',
  'max_input_tokens',
  'temperature',
]);

function mapLlmKey(
  key: string,
  value: unknown,
  body: Table,
  next: AppSettings,
  put: Put,
  skipped: ImportLine[],
  from: string,
): boolean {
  if (isTable(value)) {
    // [llm.vision] describes images; another [llm.<name>] is one more provider
    const name = key === 'vision' ? IMPORTED_VISION_LLM : `${IMPORTED_LLM}-${key}`;
    const provider = providerOf(value, body, `[llm.${key}]`, skipped);
    if (!provider) return true;
    put(`llms.${name}`, () => {
      next.llms[name] = provider as AppSettings['llms'][string];
      if (key === 'vision') next.visionLlm = name;
    });
    return true;
  }
  if (!LLM_KEYS.has(key)) return false;
  if (key !== 'model') return true;
  const provider = providerOf(body, {}, from, skipped);
  if (!provider) return true;
  put(`llms.${IMPORTED_LLM} (the default provider)`, () => {
    next.llms[IMPORTED_LLM] = provider as AppSettings['llms'][string];
    next.defaultLlm = IMPORTED_LLM;
  });
  return true;
}

function mapBrowserKey(
  key: string,
  value: unknown,
  next: AppSettings,
  put: Put,
  skipped: ImportLine[],
  from: string,
): boolean {
  const browser = next.browser;
  switch (key) {
    case 'headless':
      put('browser.headless', () => (browser.headless = Boolean(value)));
      return true;
    case 'extra_chromium_args':
      put('browser.extraArgs', () => (browser.extraArgs = (value as unknown[]).map(String)));
      return true;
    case 'chrome_instance_path':
      if (value) put('browser.executablePath', () => (browser.executablePath = String(value)));
      return true;
    case 'cdp_url':
      if (value) put('browser.cdpUrl', () => (browser.cdpUrl = String(value)));
      return true;
    case 'max_content_length':
      put('browser.maxContentLength', () => (browser.maxContentLength = Number(value)));
      return true;
    case 'proxy':
      if (!isTable(value) || typeof value.server !== 'string') {
        skipped.push({ from, why: 'a proxy needs a server' });
        return true;
      }
      put('browser.proxy', () => {
        browser.proxy = {
          server: String(value.server),
          ...(value.username ? { username: String(value.username) } : {}),
          ...(value.password ? { password: String(value.password) } : {}),
        };
      });
      return true;
    default:
      return false;
  }
}

function mapSearchKey(
  key: string,
  value: unknown,
  next: AppSettings,
  put: Put,
  skipped: ImportLine[],
  from: string,
): boolean {
  const search = next.search;
  switch (key) {
    case 'engine': {
      const engine = engineName(value);
      if (engine) put('search.engine', () => (search.engine = engine));
      else skipped.push({ from, why: `"${String(value)}" is not an engine here (${SEARCH_ENGINES.join(', ')})` });
      return true;
    }
    case 'fallback_engines': {
      const engines = (Array.isArray(value) ? value : []).map(engineName);
      const known = engines.filter((engine): engine is SearchEngineName => engine !== undefined);
      if (known.length < engines.length) skipped.push({ from, why: 'some engines are not engines here' });
      put('search.fallbackEngines', () => (search.fallbackEngines = known));
      return true;
    }
    case 'retry_delay':
      put('search.retryDelayMs', () => (search.retryDelayMs = Math.round(Number(value) * 1000)));
      return true;
    case 'max_retries':
      put('search.retriesPerEngine', () => (search.retriesPerEngine = Math.max(1, Number(value))));
      return true;
    case 'lang':
      put('search.lang', () => (search.lang = String(value)));
      return true;
    case 'country':
      put('search.country', () => (search.country = String(value)));
      return true;
    default:
      return false;
  }
}

function mapSandboxKey(
  key: string,
  value: unknown,
  next: AppSettings,
  put: Put,
  skipped: ImportLine[],
  from: string,
): boolean {
  const sandbox = next.sandbox;
  switch (key) {
    case 'use_sandbox':
      // OpenManus without its sandbox runs code on the host: here that is the local mode, an explicit choice
      put('sandbox.mode', () => (sandbox.mode = value ? 'docker' : 'local'));
      return true;
    case 'memory_limit': {
      const memoryMb = megabytes(value);
      if (memoryMb && memoryMb >= 64) put('sandbox.memoryMb', () => (sandbox.memoryMb = memoryMb));
      else skipped.push({ from, why: `"${String(value)}" is not a memory size of 64 MB or more` });
      return true;
    }
    case 'cpu_limit':
      put('sandbox.cpus', () => (sandbox.cpus = Number(value)));
      return true;
    case 'timeout':
      put('sandbox.bashTimeoutSeconds', () => (sandbox.bashTimeoutSeconds = Number(value)));
      return true;
    case 'network_enabled':
      put('sandbox.network', () => (sandbox.network = Boolean(value)));
      return true;
    default:
      return false;
  }
}
