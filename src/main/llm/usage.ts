import type { CompletionUsage } from 'openai/resources/completions';
import type { UsageTotals } from '../../shared/events.js';
import type { LlmConfig } from '../../shared/settings/llm-config.js';

const TOKENS_PER_PRICE_UNIT = 1_000_000;

export type Pricing = NonNullable<LlmConfig['pricing']>;

export const ZERO_USAGE: UsageTotals = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/** USD for a request, from prices per million tokens. */
export function costOf(promptTokens: number, completionTokens: number, pricing: Pricing): number {
  return (promptTokens * pricing.prompt + completionTokens * pricing.completion) / TOKENS_PER_PRICE_UNIT;
}

export function usageTotals(promptTokens: number, completionTokens: number, pricing?: Pricing): UsageTotals {
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    ...(pricing ? { cost: costOf(promptTokens, completionTokens, pricing) } : {}),
  };
}

/** The server's usage when it sent one; otherwise the tokenizer's counts. */
export function requestUsage(
  server: CompletionUsage | null | undefined,
  counted: { promptTokens: number; completionTokens: number },
  pricing?: Pricing,
): UsageTotals {
  if (server && (server.prompt_tokens > 0 || server.completion_tokens > 0)) {
    return usageTotals(server.prompt_tokens, server.completion_tokens, pricing);
  }
  return usageTotals(counted.promptTokens, counted.completionTokens, pricing);
}

export function addUsage(total: UsageTotals, usage: UsageTotals): UsageTotals {
  const cost = total.cost === undefined && usage.cost === undefined ? undefined : (total.cost ?? 0) + (usage.cost ?? 0);
  return {
    promptTokens: total.promptTokens + usage.promptTokens,
    completionTokens: total.completionTokens + usage.completionTokens,
    totalTokens: total.totalTokens + usage.totalTokens,
    ...(cost === undefined ? {} : { cost }),
  };
}

/** Running totals of a session (or any scope): add each request's usage. */
export class UsageTracker {
  private current: UsageTotals;

  constructor(initial: UsageTotals = ZERO_USAGE) {
    this.current = { ...initial };
  }

  add(usage: UsageTotals): UsageTotals {
    this.current = addUsage(this.current, usage);
    return this.current;
  }

  get totals(): UsageTotals {
    return { ...this.current };
  }
}
