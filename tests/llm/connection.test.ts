import { afterEach, describe, expect, it } from 'vitest';
import { createLlm } from '../../src/main/llm/client.js';
import { listModels, testConnection } from '../../src/main/llm/connection.js';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';

let server: FakeLlm | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('settings screen: models and connection test', () => {
  it('lists the models of an endpoint', async () => {
    server = await startFakeLlm(undefined, { models: ['llama3.1:8b', 'qwen2.5:7b'] });
    expect(await listModels({ provider: 'compatible', model: 'x', baseUrl: server.baseUrl })).toEqual([
      'llama3.1:8b',
      'qwen2.5:7b',
    ]);
    const report = await testConnection({ provider: 'compatible', model: 'x', baseUrl: server.baseUrl, apiKey: 'k' });
    expect(report).toEqual({ ok: true, models: ['llama3.1:8b', 'qwen2.5:7b'] });
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer k');
  });

  it('falls back to a one-token chat when the endpoint has no /models', async () => {
    server = await startFakeLlm(() => ({ text: 'p' }));
    // the fake answers 404 for any unknown route: point the base URL where /models does not exist
    const baseUrl = server.baseUrl.replace(/\/v1$/, '/other/v1');
    const report = await testConnection({ provider: 'compatible', model: 'm', baseUrl });
    expect(report).toEqual({ ok: true });
    expect(server.chatRequests[0].body).toMatchObject({ model: 'm', max_tokens: 1 });
  });

  it('reports a refused key and a missing key as one line with a hint', async () => {
    server = await startFakeLlm(() => ({ fault: 'status', status: 401, message: 'Incorrect API key provided' }));
    const baseUrl = server.baseUrl.replace(/\/v1$/, '/other/v1');
    const refused = await testConnection({ provider: 'compatible', model: 'm', baseUrl, apiKey: 'bad' });
    expect(refused.ok).toBe(false);
    expect(refused.code).toBe('unauthorized');
    expect(refused.error).toMatch(
      /API key refused \(HTTP 401\).*Incorrect API key provided.*check it in the provider's settings/,
    );

    const missing = await testConnection({ provider: 'openai', model: 'gpt-4o' });
    expect(missing).toMatchObject({ ok: false, code: 'no_api_key' });
    expect(missing.error).toMatch(/"apiKey"/);
  });

  it('reports an unreachable endpoint', async () => {
    server = await startFakeLlm();
    const baseUrl = server.baseUrl;
    await server.close();
    const report = await testConnection({ provider: 'compatible', model: 'm', baseUrl, requestTimeoutMs: 2_000 });
    expect(report).toMatchObject({ ok: false, code: 'network' });
    expect(report.error).toMatch(/could not reach the endpoint.*check the base URL/);
  });
});

describe('providers', () => {
  it('talks to Azure OpenAI through the deployment URL with an api-key header', async () => {
    server = await startFakeLlm(() => ({ text: 'from azure' }));
    const previous = process.env.OPENAI_BASE_URL;
    process.env.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
    try {
      const llm = createLlm({
        provider: 'azure',
        model: 'gpt-4o',
        deployment: 'prod-gpt4o',
        apiVersion: '2024-10-21',
        apiKey: 'azure-key',
        baseUrl: server.baseUrl.replace(/\/v1$/, '/'),
      });
      expect((await llm.ask([{ role: 'user', content: 'hi' }])).text).toBe('from azure');
    } finally {
      if (previous === undefined) delete process.env.OPENAI_BASE_URL;
      else process.env.OPENAI_BASE_URL = previous;
    }
    const request = server.chatRequests[0];
    expect(request.path).toBe('/openai/deployments/prod-gpt4o/chat/completions');
    expect(request.headers['api-key']).toBe('azure-key');
  });
});
