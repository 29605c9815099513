/** Prices of models in USD per million tokens, prompt (input) and completion (output). */
export interface ModelPrice {
  prompt: number;
  completion: number;
}

/**
 * List prices of well-known models in USD per million tokens (prompt, completion), standard tier, for an estimated
 * cost; a provider's own price (`pricing` of its LLM settings) comes first. Longer names are listed before the
 * names they start with.
 */
const KNOWN_PRICES: ReadonlyArray<readonly [model: string, prompt: number, completion: number]> = [
  ['gpt-5-nano', 0.05, 0.4],
  ['gpt-5-mini', 0.25, 2],
  ['gpt-5', 1.25, 10],
  ['gpt-4.1-nano', 0.1, 0.4],
  ['gpt-4.1-mini', 0.4, 1.6],
  ['gpt-4.1', 2, 8],
  ['gpt-4o-mini', 0.15, 0.6],
  ['gpt-4o', 2.5, 10],
  ['o4-mini', 1.1, 4.4],
  ['o3-mini', 1.1, 4.4],
  ['o3', 2, 8],
  ['claude-opus-4-5', 5, 25],
  ['claude-opus-4', 15, 75],
  ['claude-sonnet-4', 3, 15],
  ['claude-3-7-sonnet', 3, 15],
  ['claude-3-5-sonnet', 3, 15],
  ['claude-3-5-haiku', 0.8, 4],
  ['gemini-2.5-pro', 1.25, 10],
  ['gemini-2.5-flash', 0.3, 2.5],
  ['gemini-2.0-flash', 0.1, 0.4],
  ['deepseek-chat', 0.27, 1.1],
  ['deepseek-reasoner', 0.55, 2.19],
];

/** `gpt-4o-2024-08-06` is `gpt-4o`; `gpt-4o-audio-preview` is another model with other prices. */
const SNAPSHOT_SUFFIX = /^-(\d|latest$)/;

/** The list price of a model id, also as a dated snapshot or behind a router's `vendor/` prefix. */
export function knownPricing(model: string): ModelPrice | undefined {
  const id = model.toLowerCase().split('/').at(-1) ?? '';
  const known = KNOWN_PRICES.find(
    ([name]) => id === name || (id.startsWith(name) && SNAPSHOT_SUFFIX.test(id.slice(name.length))),
  );
  return known ? { prompt: known[1], completion: known[2] } : undefined;
}
