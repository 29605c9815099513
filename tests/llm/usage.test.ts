import { describe, expect, it } from 'vitest';
import { UsageTracker, costOf, requestUsage } from '../../src/main/llm/usage.js';
import { fakeLlmClient } from './llm-fixture.js';

describe('usage and cost', () => {
  it('prices tokens per million', () => {
    expect(costOf(2_000_000, 500_000, { prompt: 0.15, completion: 0.6 })).toBeCloseTo(0.6, 10);
    expect(requestUsage(undefined, { promptTokens: 10, completionTokens: 5 })).toEqual({
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
    });
  });

  it('adds up the requests of a session, cost included', async () => {
    const { llm } = await fakeLlmClient(() => ({ text: 'ok', usage: { prompt_tokens: 100, completion_tokens: 20 } }), {
      pricing: { prompt: 1, completion: 4 },
    });
    const session = new UsageTracker();
    for (let request = 0; request < 3; request++) {
      await llm.ask([{ role: 'user', content: 'hi' }], { onUsage: (usage) => session.add(usage) });
    }
    expect(session.totals.promptTokens).toBe(300);
    expect(session.totals.completionTokens).toBe(60);
    expect(session.totals.totalTokens).toBe(360);
    expect(session.totals.cost).toBeCloseTo((3 * (100 * 1 + 20 * 4)) / 1e6, 12);
  });
});
