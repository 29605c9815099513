import type { AppSettings } from '../../shared/settings/app-settings.js';
import { LlmConfigSchema } from '../../shared/settings/llm-config.js';

export const OVERRIDE_LLM_NAME = 'override';
const DEFAULT_LLM_NAME = 'default';
const DEFAULT_MODEL = 'gpt-4o';

export interface LlmOverrides {
  model?: string;
  baseUrl?: string;
  apiKey?: string;
}

/** MANUS_LLM_* first, then the OpenAI SDK's own variables. */
export function llmOverridesFromEnv(env: NodeJS.ProcessEnv = process.env): LlmOverrides {
  return dropEmpty({
    model: env.MANUS_LLM_MODEL,
    baseUrl: env.MANUS_LLM_BASE_URL ?? env.OPENAI_BASE_URL,
    apiKey: env.MANUS_LLM_API_KEY ?? env.OPENAI_API_KEY,
  });
}

/**
 * Settings with flags/env applied: when any override is given, a provider built from the saved default
 * plus the overrides becomes the default for this process (nothing is saved).
 */
export function applyLlmOverrides(settings: AppSettings, ...layers: LlmOverrides[]): AppSettings {
  const overrides: LlmOverrides = Object.assign({}, ...layers.map(dropEmpty));
  if (Object.keys(overrides).length === 0) return settings;
  const baseName = defaultLlmName(settings);
  const base = baseName ? settings.llms[baseName] : undefined;
  const merged = LlmConfigSchema.parse({
    ...(base ?? {}),
    model: overrides.model ?? base?.model ?? DEFAULT_MODEL,
    ...(overrides.baseUrl
      ? { baseUrl: overrides.baseUrl, provider: base?.provider === 'azure' ? 'azure' : 'openai' }
      : {}),
    ...(overrides.apiKey ? { apiKey: overrides.apiKey } : {}),
  });
  return { ...settings, llms: { ...settings.llms, [OVERRIDE_LLM_NAME]: merged }, defaultLlm: OVERRIDE_LLM_NAME };
}

export function defaultLlmName(settings: AppSettings): string | undefined {
  if (settings.defaultLlm && settings.llms[settings.defaultLlm]) return settings.defaultLlm;
  return Object.keys(settings.llms)[0];
}

/** `llm.model` is shorthand for the default provider's `llms.<name>.model`. */
export function expandSettingsKey(settings: AppSettings, key: string): string {
  if (!key.startsWith('llm.')) return key;
  return `llms.${defaultLlmName(settings) ?? DEFAULT_LLM_NAME}.${key.slice('llm.'.length)}`;
}

function dropEmpty(overrides: LlmOverrides): LlmOverrides {
  return Object.fromEntries(Object.entries(overrides).filter(([, v]) => typeof v === 'string' && v.length > 0));
}
