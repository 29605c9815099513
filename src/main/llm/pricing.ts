import type { LlmConfig } from '../../shared/settings/llm-config.js';
import { knownPricing } from '../../shared/model-prices.js';
import type { Pricing } from './usage.js';

/** What a model's tokens cost: the price set for this LLM, else the list price of its model, else unknown. */
export function pricingFor(config: Pick<LlmConfig, 'model' | 'pricing'>): Pricing | undefined {
  return config.pricing ?? knownPricing(config.model);
}
