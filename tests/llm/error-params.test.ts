import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLlm } from '../../src/main/llm/client.js';
import { LlmError } from '../../src/main/llm/errors.js';
import type { MessageParams } from '../../src/shared/events.js';
import { sequence } from '../support/fake-llm/index.js';
import { FAST_RETRY, fakeLlmClient } from './llm-fixture.js';

const question = [{ role: 'user' as const, content: 'question?' }];

async function failure(promise: Promise<unknown>): Promise<LlmError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LlmError);
  return error as LlmError;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const clientFor = (baseUrl: string) =>
  createLlm(
    { provider: 'compatible', model: 'm', baseUrl, apiKey: 'sk-test', maxAttempts: 1 },
    { retryTiming: FAST_RETRY },
  );

describe('what the LLM layer tells the UI to translate', () => {
  it('says a refused connection was refused', async () => {
    const error = await failure(clientFor(`http://127.0.0.1:${await closedPort()}/v1`).ask(question));
    expect(error.code).toBe('network');
    expect(error.params).toEqual({ reason: 'refused', attempts: 1 });
  });

  it('says a name that does not resolve could not be found', async () => {
    const error = await failure(clientFor('http://no-such-provider.invalid/v1').ask(question));
    expect(error.code).toBe('network');
    expect(error.params.reason).toBe('dns');
  });

  it('gives a refused key its status, and a long rate limit the seconds the provider asked for', async () => {
    const { llm: refusing } = await fakeLlmClient(sequence({ fault: 'status', status: 401, message: 'bad key' }));
    expect((await failure(refusing.ask(question))).params).toEqual({ status: 401, attempts: 1 });

    const { llm: limited } = await fakeLlmClient(sequence({ fault: 'rate_limit', retryAfterSeconds: 600 }));
    const error = await failure(limited.ask(question));
    expect(error.code).toBe('rate_limited');
    expect(error.params).toMatchObject({ status: 429, retryAfterSeconds: 600 });
  });

  it('hands a retry notice the reason, the attempt and the moment of the next try', async () => {
    const { llm } = await fakeLlmClient(sequence({ fault: 'rate_limit', retryAfterSeconds: 1 }, { text: 'ok' }));
    const notices: Array<{ code: string; params?: MessageParams }> = [];
    const before = Date.now();
    await llm.ask(question, { onNotice: (code, _text, params) => notices.push({ code, params }) });
    expect(notices).toEqual([
      { code: 'retrying', params: { reason: 'rate_limited', retryAt: expect.any(Number), attempt: 2, maxAttempts: 6 } },
    ]);
    // an absolute time, the provider's second after the failed attempt
    expect(Number(notices[0]!.params!.retryAt)).toBeGreaterThanOrEqual(before + 1000);
  });
});
