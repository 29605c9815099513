import { LlmConfigSchema, type LlmConfig } from '../../shared/settings/llm-config.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';

export class NoLlmConfiguredError extends Error {
  readonly code = 'no_llm';
  readonly hint =
    'Add a provider in Settings, or set MANUS_LLM_API_KEY / MANUS_LLM_MODEL (and MANUS_LLM_BASE_URL for a compatible endpoint), or run `manus config set llm.apiKey ...`.';
  constructor() {
    super('No language model is configured.');
    this.name = 'NoLlmConfiguredError';
  }
}

/**
 * The LLM config a session uses: `requested` names a configured provider or is a model id used with the
 * default provider; without it, the default provider.
 */
export function resolveLlmConfig(settings: AppSettings, requested?: string): LlmConfig {
  const name = resolveLlmName(settings, requested);
  if (!name) throw new NoLlmConfiguredError();
  const config = withImageDetail(settings, settings.llms[name]);
  if (!requested || requested === name || requested === config.model) return config;
  // a model id run with the default provider: the provider's price was set for its own model, not for this one
  return LlmConfigSchema.parse({ ...config, model: requested, pricing: undefined });
}

/** The name of the configured provider a turn runs on (what `resolveLlmConfig` picked), for "open its settings". */
export function resolveLlmName(settings: AppSettings, requested?: string): string | undefined {
  if (requested && settings.llms[requested]) return requested;
  if (settings.defaultLlm && settings.llms[settings.defaultLlm]) return settings.defaultLlm;
  return Object.keys(settings.llms)[0];
}

/** A provider's own image detail wins; else the app's. */
function withImageDetail(settings: AppSettings, config: LlmConfig): LlmConfig {
  return { ...config, imageDetail: config.imageDetail ?? settings.imageDetail };
}

/** The provider the settings name to describe images for models that cannot see them (the schema checks it exists). */
export function resolveVisionLlmConfig(settings: AppSettings): { name: string; config: LlmConfig } | undefined {
  const name = settings.visionLlm;
  const config = name ? settings.llms[name] : undefined;
  return name && config ? { name, config: withImageDetail(settings, config) } : undefined;
}

/**
 * The configured provider that runs `model` (the default one first), for a turn sent again on the model it ran on;
 * undefined when none does any more (the default provider then runs it).
 */
export function providerOfModel(settings: AppSettings, model: string): string | undefined {
  const byDefault = resolveLlmName(settings);
  if (byDefault && settings.llms[byDefault]?.model === model) return byDefault;
  return Object.keys(settings.llms).find((name) => settings.llms[name]?.model === model);
}
