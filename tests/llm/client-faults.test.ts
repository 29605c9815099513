import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLlm } from '../../src/main/llm/client.js';
import { LlmError } from '../../src/main/llm/errors.js';
import { sequence } from '../support/fake-llm/index.js';
import { FAST_RETRY, failure, fakeLlmClient, noticeCollector } from './llm-fixture.js';
import { waitFor } from '../support/wait-for.js';

const question = [{ role: 'user' as const, content: 'question?' }];

/** A port nobody listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('LLM faults: retried or a clear error', () => {
  it('honours Retry-After (seconds) on 429, then succeeds', async () => {
    const { server, llm } = await fakeLlmClient(
      sequence({ fault: 'rate_limit', retryAfterSeconds: 1 }, { text: 'after the wait' }),
    );
    const { notices, onNotice } = noticeCollector();
    const reply = await llm.ask(question, { onNotice });
    expect(reply.text).toBe('after the wait');
    expect(server.chatRequests).toHaveLength(2);
    expect(notices).toHaveLength(1);
    expect(notices[0].code).toBe('retrying');
    expect(notices[0].text).toMatch(/rate limited.*429.*retrying in 1\.0 s \(attempt 2 of 6\)/);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const { llm } = await fakeLlmClient(
      sequence({ fault: 'rate_limit', retryAfterDate: new Date(Date.now() + 3_000) }, { text: 'ok' }),
    );
    const { notices, onNotice } = noticeCollector();
    await llm.ask(question, { onNotice });
    // HTTP dates have whole seconds: the wait is up to 3 s, far above the test backoff's 20 ms
    const waitSeconds = Number(/retrying in ([\d.]+) s/.exec(notices[0].text)?.[1]);
    expect(waitSeconds).toBeGreaterThan(0.1);
    expect(waitSeconds).toBeLessThanOrEqual(3);
  });

  it('gives up on 429 after maxAttempts with an error naming the cause', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ fault: 'rate_limit' }), { maxAttempts: 3 });
    const error = await failure(llm.ask(question));
    expect(error.code).toBe('rate_limited');
    expect(error.attempts).toBe(3);
    expect(error.message).toMatch(/^LLM request failed after 3 attempts: rate limited by the provider \(HTTP 429\)/);
    expect(error.hint).toMatch(/rate limit/);
    expect(server.chatRequests).toHaveLength(3);
  });

  it('retries 500 with backoff, then succeeds', async () => {
    const { server, llm } = await fakeLlmClient(
      sequence({ fault: 'server_error' }, { fault: 'status', status: 503 }, { text: 'recovered' }),
    );
    expect((await llm.ask(question)).text).toBe('recovered');
    expect(server.chatRequests).toHaveLength(3);
  });

  it('stops after at most 6 attempts on 500', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ fault: 'server_error' }));
    const error = await failure(llm.ask(question));
    expect(error.code).toBe('server_error');
    expect(error.status).toBe(500);
    expect(error.attempts).toBe(6);
    expect(server.chatRequests).toHaveLength(6);
  });

  it.each([
    [401, 'unauthorized'],
    [403, 'forbidden'],
    [404, 'not_found'],
    [400, 'bad_request'],
  ] as const)('never retries %i (%s)', async (status, code) => {
    const { server, llm } = await fakeLlmClient(() => ({ fault: 'status', status, message: `scripted ${status}` }));
    const error = await failure(llm.ask(question));
    expect(error.code).toBe(code);
    expect(error.status).toBe(status);
    expect(error.message).toContain(`scripted ${status}`);
    expect(error.message).toContain('fake-model');
    expect(error.hint.length).toBeGreaterThan(10);
    expect(server.chatRequests).toHaveLength(1);
  });

  it('times out a hung request, retries, and ends as a timeout error', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ fault: 'hang' }), { requestTimeoutMs: 200, maxAttempts: 2 });
    const error = await failure(llm.ask(question));
    expect(error.code).toBe('timeout');
    expect(error.message).toMatch(/after 2 attempts.*sent nothing for 200 ms/);
    expect(server.chatRequests).toHaveLength(2);
  });

  it('recovers from a hang on the next attempt', async () => {
    const { llm } = await fakeLlmClient(sequence({ fault: 'hang' }, { text: 'second try' }), { requestTimeoutMs: 200 });
    expect((await llm.ask(question)).text).toBe('second try');
  });

  it('does not time out a slow stream that keeps sending', async () => {
    const { llm } = await fakeLlmClient(() => ({ text: 'one two three four five six seven', chunkDelayMs: 60 }), {
      requestTimeoutMs: 150,
    });
    // seven pieces 60 ms apart: the whole reply takes longer than the 150 ms timeout, each gap less
    expect((await llm.ask(question)).text).toBe('one two three four five six seven');
  });

  it('retries empty choices, then fails with empty_reply', async () => {
    const { llm: recovering } = await fakeLlmClient(sequence({ fault: 'empty_choices' }, { text: 'real answer' }));
    expect((await recovering.ask(question)).text).toBe('real answer');

    const { server, llm } = await fakeLlmClient(() => ({ fault: 'empty_choices' }), { maxAttempts: 3 });
    const error = await failure(llm.ask(question, { stream: false }));
    expect(error.code).toBe('empty_reply');
    expect(error.message).toMatch(/after 3 attempts: model fake-model answered with no choices/);
    expect(server.chatRequests).toHaveLength(3);
  });

  it('retries a stream cut mid-way; the retry notice says the stream starts over', async () => {
    const { server, llm } = await fakeLlmClient(
      sequence({ fault: 'cut_stream', afterChunks: 3 }, { text: 'complete reply' }),
    );
    const { notices, onNotice } = noticeCollector();
    const deltas: string[] = [];
    const reply = await llm.ask(question, { onNotice, onDelta: (chunk) => deltas.push(chunk) });
    expect(reply.text).toBe('complete reply');
    expect(server.chatRequests).toHaveLength(2);
    expect(notices[0].text).toMatch(/connection failed mid-reply.*starts over/);
    // the cut attempt had streamed two text pieces before dying
    expect(deltas.join('')).toMatch(/complete reply$/);
  });

  it('ends a stream that is always cut as a network error', async () => {
    const { llm } = await fakeLlmClient(() => ({ fault: 'cut_stream' }), { maxAttempts: 2 });
    const error = await failure(llm.ask(question));
    expect(error.code).toBe('network');
    expect(error.attempts).toBe(2);
  });

  it('retries a non-streamed reply cut mid-body', async () => {
    const { server, llm } = await fakeLlmClient(sequence({ fault: 'cut_stream' }, { text: 'whole' }));
    expect((await llm.ask(question, { stream: false })).text).toBe('whole');
    expect(server.chatRequests).toHaveLength(2);
  });

  it('retries an unreachable endpoint and names it', async () => {
    const port = await closedPort();
    const llm = createLlm(
      { provider: 'compatible', model: 'm', baseUrl: `http://127.0.0.1:${port}/v1`, maxAttempts: 2 },
      { retryTiming: FAST_RETRY },
    );
    const error = await failure(llm.ask(question));
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/after 2 attempts: could not reach the endpoint/);
    expect(error.hint).toMatch(/base URL/);
  });

  it('cancels during a retry wait longer than the test may take', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ fault: 'rate_limit', retryAfterSeconds: 90 }));
    const { notices, onNotice } = noticeCollector();
    const abort = new AbortController();
    const pending = failure(llm.ask(question, { signal: abort.signal, onNotice }));
    await waitFor(() => notices.length === 1, 5_000, 'the retry notice');
    abort.abort();
    const error = await pending;
    expect(error.code).toBe('cancelled');
    expect(server.chatRequests).toHaveLength(1);
  });

  it('cancels a hung request and closes the connection', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ fault: 'hang' }), { requestTimeoutMs: 60_000 });
    const abort = new AbortController();
    const pending = failure(llm.ask(question, { signal: abort.signal }));
    await waitFor(() => server.chatRequests.length === 1, 5_000);
    abort.abort();
    const error = await pending;
    expect(error.code).toBe('cancelled');
    await waitFor(() => server.chatRequests[0].closedByClient === true, 5_000);
  });

  it('cancels mid-stream: the rest of the reply is never taken', async () => {
    const { llm } = await fakeLlmClient(() => ({ text: 'a b c d e f g h i j k l m n o p', chunkDelayMs: 200 }));
    const abort = new AbortController();
    const deltas: string[] = [];
    const pending = failure(
      llm.ask(question, {
        signal: abort.signal,
        onDelta: (chunk) => {
          deltas.push(chunk);
          abort.abort();
        },
      }),
    );
    const error = await pending;
    expect(error.code).toBe('cancelled');
    expect(deltas).toHaveLength(1);
  });

  it('refuses an already aborted signal without sending anything', async () => {
    const { server, llm } = await fakeLlmClient();
    const error = await failure(llm.ask(question, { signal: AbortSignal.abort() }));
    expect(error.code).toBe('cancelled');
    expect(server.chatRequests).toHaveLength(0);
  });

  it('names the missing API key setting, but lets local servers go without one', () => {
    let error: unknown;
    try {
      createLlm({ provider: 'openai', model: 'gpt-4o' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LlmError);
    expect((error as LlmError).code).toBe('no_api_key');
    expect((error as LlmError).message).toMatch(/"apiKey"/);
    expect(() => createLlm({ provider: 'compatible', model: 'x', baseUrl: 'https://openrouter.ai/api/v1' })).toThrow(
      /"apiKey"/,
    );
    expect(() => createLlm({ provider: 'azure', model: 'x', baseUrl: 'https://r.openai.azure.com' })).toThrow(
      /"apiKey"/,
    );
    expect(() => createLlm({ provider: 'compatible', model: 'x' })).toThrow(/"baseUrl"/);
    expect(createLlm({ provider: 'compatible', model: 'llama3.1', baseUrl: 'http://localhost:11434/v1' }).model).toBe(
      'llama3.1',
    );
    expect(() => createLlm({ provider: 'compatible', model: '' })).toThrow(/invalid LLM settings/);
  });
});

describe('provider quirks', () => {
  it('asks again without stream_options when a server refuses it, counting usage itself', async () => {
    const { server, llm } = await fakeLlmClient((request) =>
      request.body.stream_options
        ? { fault: 'status', status: 400, message: 'Unrecognized request argument supplied: stream_options' }
        : { text: 'hello there', usage: null },
    );
    const reply = await llm.ask(question);
    expect(reply.text).toBe('hello there');
    expect(reply.usage.completionTokens).toBe(2);
    await llm.ask(question);
    expect(server.chatRequests.map((request) => Boolean(request.body.stream_options))).toEqual([true, false, false]);
  });

  it('does not retry a reply that spent all its tokens before answering', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ text: '', finishReason: 'length' }), { model: 'o3-mini' });
    const error = await failure(llm.ask(question));
    expect(error.code).toBe('empty_reply');
    expect(error.message).toMatch(/used all its completion tokens/);
    expect(error.hint).toMatch(/maxTokens/);
    expect(server.chatRequests).toHaveLength(1);
  });
});
