import { LlmConfigSchema, type LlmConfig } from '../../shared/settings/llm-config.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';

export class NoLlmConfiguredError extends Error {
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
  const names = Object.keys(settings.llms);
  if (requested && settings.llms[requested]) return settings.llms[requested];
  const defaultName = settings.defaultLlm && settings.llms[settings.defaultLlm] ? settings.defaultLlm : names[0];
  if (!defaultName) throw new NoLlmConfiguredError();
  const base = settings.llms[defaultName];
  if (!requested || requested === base.model) return base;
  // the provider's price was set for its own model, not for this one
  return LlmConfigSchema.parse({ ...base, model: requested, pricing: undefined });
}
