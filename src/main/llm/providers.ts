import OpenAI, { AzureOpenAI } from 'openai';
import type { LlmConfig } from '../../shared/settings/llm-config.js';
import { LlmError, readableStatusError } from './errors.js';

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const DEFAULT_AZURE_API_VERSION = '2024-10-21';
/** The SDK insists on a key; local servers (Ollama, LM Studio, vLLM) ignore it. */
const PLACEHOLDER_KEY = 'no-key-needed';

export interface SdkClientOptions {
  /** custom fetch (tests, proxies) */
  fetch?: typeof fetch;
}

/** The SDK reads only `{"error": {...}}` bodies; these read the others providers send (errors.ts). */
class ReadableErrorsOpenAI extends OpenAI {
  protected override makeStatusError(status: number, body: object, text: string | undefined, headers: Headers) {
    const readable = readableStatusError(body, text);
    return super.makeStatusError(status, readable.body as object, readable.text, headers);
  }
}

class ReadableErrorsAzureOpenAI extends AzureOpenAI {
  protected override makeStatusError(status: number, body: object, text: string | undefined, headers: Headers) {
    const readable = readableStatusError(body, text);
    return super.makeStatusError(status, readable.body as object, readable.text, headers);
  }
}

/** Loopback, private-range and *.local hosts: servers on the user's machine or LAN that usually need no key. */
export function isLocalUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return (
    host === 'localhost' ||
    host === '::1' ||
    host === '0.0.0.0' ||
    host.endsWith('.local') ||
    host.endsWith('.localhost') ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    /^host\.docker\.internal$/.test(host)
  );
}

export function baseUrlOf(config: LlmConfig): string {
  return config.baseUrl ?? OPENAI_BASE_URL;
}

function requireApiKey(config: LlmConfig, why: string): string {
  if (config.apiKey?.trim()) return config.apiKey.trim();
  throw new LlmError('no_api_key', `no API key for model ${config.model}: ${why} needs the setting "apiKey"`);
}

/** The openai SDK client for a configured provider; the SDK's own retries are off (retry.ts does them). */
export function createSdkClient(config: LlmConfig, options: SdkClientOptions = {}): OpenAI {
  const common = { maxRetries: 0, timeout: config.requestTimeoutMs, fetch: options.fetch };
  if (config.provider === 'azure') {
    if (!config.baseUrl) {
      throw new LlmError('invalid_config', 'Azure needs the setting "baseUrl" (https://<resource>.openai.azure.com)');
    }
    // an explicit baseURL keeps the SDK from mixing in OPENAI_BASE_URL from the environment
    const endpoint = config.baseUrl.replace(/\/+$/, '');
    return new ReadableErrorsAzureOpenAI({
      ...common,
      baseURL: endpoint.endsWith('/openai') ? endpoint : `${endpoint}/openai`,
      apiKey: requireApiKey(config, 'Azure OpenAI'),
      apiVersion: config.apiVersion ?? DEFAULT_AZURE_API_VERSION,
      deployment: config.deployment ?? config.model,
    });
  }
  if (config.provider === 'compatible' && !config.baseUrl) {
    throw new LlmError(
      'invalid_config',
      'an OpenAI-compatible provider needs the setting "baseUrl" (e.g. http://localhost:11434/v1)',
    );
  }
  const baseURL = baseUrlOf(config);
  const apiKey = isLocalUrl(baseURL)
    ? config.apiKey?.trim() || PLACEHOLDER_KEY
    : requireApiKey(config, `the endpoint ${baseURL}`);
  return new ReadableErrorsOpenAI({ ...common, baseURL, apiKey });
}
