import { afterEach, describe, expect, it } from 'vitest';
import { knownPricing } from '../../src/shared/model-prices.js';
import { AppSettingsSchema } from '../../src/shared/settings/app-settings.js';
import { resolveLlmConfig } from '../../src/main/session/llm-resolution.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { fakeLlmClient } from './llm-fixture.js';

const USAGE = { prompt_tokens: 400_000, completion_tokens: 100_000 };

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function costOfOneCall(config: Parameters<typeof fakeLlmClient>[1]): Promise<number | undefined> {
  const { llm } = await fakeLlmClient(() => ({ text: 'ok', usage: USAGE }), config);
  return (await llm.ask([{ role: 'user', content: 'hi' }])).usage.cost;
}

describe('model prices', () => {
  it('knows the list price of well-known models, their dated snapshots and routed names, and no others', () => {
    expect(knownPricing('gpt-4o-mini')).toEqual({ prompt: 0.15, completion: 0.6 });
    expect(knownPricing('gpt-4o-2024-08-06')).toEqual({ prompt: 2.5, completion: 10 });
    expect(knownPricing('openai/gpt-4o-mini')).toEqual({ prompt: 0.15, completion: 0.6 });
    expect(knownPricing('claude-sonnet-4-20250514')).toEqual({ prompt: 3, completion: 15 });
    expect(knownPricing('claude-opus-4-5')).toEqual({ prompt: 5, completion: 25 });
    expect(knownPricing('gpt-4o-audio-preview')).toBeUndefined();
    expect(knownPricing('llama3.1:8b')).toBeUndefined();
  });

  it('prices a call by the provider price set for its LLM, else the list price, else leaves the cost out', async () => {
    // 400k prompt + 100k completion tokens
    expect(await costOfOneCall({ model: 'gpt-4o-mini' })).toBeCloseTo(0.4 * 0.15 + 0.1 * 0.6, 10);
    expect(await costOfOneCall({ model: 'gpt-4o-mini', pricing: { prompt: 1, completion: 2 } })).toBeCloseTo(
      0.4 + 0.2,
      10,
    );
    expect(await costOfOneCall({ model: 'my-local-model', pricing: { prompt: 1, completion: 2 } })).toBeCloseTo(0.6);
    expect(await costOfOneCall({ model: 'my-local-model' })).toBeUndefined();
  });

  it("does not apply a provider's price to another model id run with it", () => {
    const settings = AppSettingsSchema.parse({
      llms: { main: { model: 'my-model', apiKey: 'k', pricing: { prompt: 9, completion: 9 } } },
    });
    expect(resolveLlmConfig(settings).pricing).toEqual({ prompt: 9, completion: 9 });
    expect(resolveLlmConfig(settings, 'my-model').pricing).toEqual({ prompt: 9, completion: 9 });
    expect(resolveLlmConfig(settings, 'gpt-4o').pricing).toBeUndefined();
  });

  it("adds each call's estimated cost to the session's usage", async () => {
    harness = await startCoreHarness(
      () => ({ text: 'Done.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }], usage: USAGE }),
      { llmConfig: { model: 'gpt-4o' } },
    );
    const { sessionId, done } = harness.service.start({ task: 'Price me' });
    await done;
    const usage = harness.store.getSession(sessionId)!.usage;
    expect(usage).toMatchObject({ promptTokens: 400_000, completionTokens: 100_000, totalTokens: 500_000 });
    expect(usage.cost).toBeCloseTo(0.4 * 2.5 + 0.1 * 10, 10);
  });
});
