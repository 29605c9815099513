import type { LlmConfig } from '../../shared/settings/llm-config.js';

/** The model id without a router prefix ("openai/o3-mini" → "o3-mini"). */
export function bareModelName(model: string): string {
  return model.toLowerCase().split('/').pop() ?? model.toLowerCase();
}

/** o1/o3/o4 and gpt-5 families: max_completion_tokens, no temperature. */
export function isReasoningModel(model: string): boolean {
  return /^(o1|o3|o4)(-|$)|^gpt-5/.test(bareModelName(model)) && !/^gpt-5.*-chat/.test(bareModelName(model));
}

const VISION_MODEL_PATTERN =
  /gpt-4o|gpt-4\.1|gpt-4\.5|gpt-4-turbo|vision|gpt-5|^o1$|^o1-(?!mini|preview)|^o3(?!-mini)|^o4|claude-3|claude-(opus|sonnet|haiku)|gemini|llava|bakllava|pixtral|qwen.*-?vl|-vl\b|minicpm-v|gemma-?3|llama-?4|moondream|grok-.*vision|mistral-(small|medium)-3/;

/** Whether images may be sent: the setting when it is explicit, else a guess from the model name. */
export function supportsVision(config: Pick<LlmConfig, 'model' | 'vision'>): boolean {
  if (config.vision !== 'auto') return config.vision;
  return VISION_MODEL_PATTERN.test(bareModelName(config.model));
}

/** Models tokenized with cl100k_base; everything newer (and non-OpenAI models, as an approximation) uses o200k_base. */
export function usesLegacyEncoding(model: string): boolean {
  return /^(gpt-4(?!o|\.)|gpt-3\.5|text-embedding)/.test(bareModelName(model));
}
