import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { waitFor } from '../support/wait-for.js';

let llm: FakeLlm | undefined;
afterEach(async () => {
  await llm?.close();
  llm = undefined;
});

function sdk(server: FakeLlm, timeout = 10_000) {
  return new OpenAI({ baseURL: server.baseUrl, apiKey: 'test-key', maxRetries: 0, timeout });
}

describe('fake LLM server through the openai SDK', () => {
  it('streams text in several deltas with a final usage chunk', async () => {
    llm = await startFakeLlm(() => ({
      text: 'Hello there, general Kenobi',
      usage: { prompt_tokens: 11, completion_tokens: 5 },
    }));
    const stream = await sdk(llm).chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const deltas: string[] = [];
    let usage: OpenAI.CompletionUsage | undefined;
    let finish: string | null = null;
    for await (const chunk of stream) {
      const content = chunk.choices[0]?.delta.content;
      if (content) deltas.push(content);
      if (chunk.choices[0]?.finish_reason) finish = chunk.choices[0].finish_reason;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join('')).toBe('Hello there, general Kenobi');
    expect(finish).toBe('stop');
    expect(usage).toEqual({ prompt_tokens: 11, completion_tokens: 5, total_tokens: 16 });
    expect(llm.chatRequests[0].body.messages).toEqual([{ role: 'user', content: 'hi' }]);
    expect(llm.chatRequests[0].headers.authorization).toBe('Bearer test-key');
  });

  it('streams several tool calls split into delta pieces, malformed JSON passed raw', async () => {
    llm = await startFakeLlm(() => ({
      toolCalls: [
        { name: 'bash', arguments: { command: 'ls -la /tmp' }, id: 'call_a' },
        { name: 'no_such_tool', arguments: '{"broken": ' },
      ],
    }));
    const stream = await sdk(llm).chat.completions.create({
      model: 'fake-model',
      messages: [{ role: 'user', content: 'go' }],
      stream: true,
    });
    const pieces = new Map<number, { id?: string; name?: string; args: string; deltas: number }>();
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const delta of chunk.choices[0]?.delta.tool_calls ?? []) {
        const entry = pieces.get(delta.index) ?? { args: '', deltas: 0 };
        entry.id ??= delta.id;
        entry.name ??= delta.function?.name;
        entry.args += delta.function?.arguments ?? '';
        entry.deltas += 1;
        pieces.set(delta.index, entry);
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('tool_calls');
    expect(pieces.get(0)).toMatchObject({ id: 'call_a', name: 'bash', args: '{"command":"ls -la /tmp"}' });
    expect(pieces.get(0)!.deltas).toBeGreaterThan(2);
    expect(pieces.get(1)).toMatchObject({ name: 'no_such_tool', args: '{"broken": ' });
    expect(pieces.get(1)!.id).toMatch(/^call_/);
  });

  it('answers without streaming, in script order, and lists models', async () => {
    llm = await startFakeLlm(
      sequence({ text: 'first' }, { toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] }),
    );
    const client = sdk(llm);
    const ask = () => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect((await ask()).choices[0].message.content).toBe('first');
    const second = await ask();
    expect(second.choices[0].message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'terminate', arguments: '{"status":"success"}' },
    });
    expect((await ask()).choices[0].finish_reason).toBe('tool_calls');
    const models = await client.models.list();
    expect(models.data.map((model) => model.id)).toContain('fake-model');
    expect(llm.chatRequests.map((captured) => captured.index)).toEqual([0, 1, 2]);
  });

  it('injects 429 with Retry-After, 500 and arbitrary statuses as SDK errors', async () => {
    llm = await startFakeLlm(
      sequence(
        { fault: 'rate_limit', retryAfterSeconds: 3 },
        { fault: 'server_error' },
        { fault: 'status', status: 400, message: 'model does not support tools', code: 'unsupported' },
      ),
    );
    const client = sdk(llm);
    const ask = () => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    const rateLimited = await ask().catch((error: unknown) => error);
    expect(rateLimited).toBeInstanceOf(OpenAI.RateLimitError);
    expect((rateLimited as InstanceType<typeof OpenAI.APIError>).headers?.get('retry-after')).toBe('3');
    await expect(ask()).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    const bad = await ask().catch((error: unknown) => error);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect((bad as InstanceType<typeof OpenAI.APIError>).message).toContain('does not support tools');
    expect((bad as InstanceType<typeof OpenAI.APIError>).code).toBe('unsupported');
  });

  it('answers empty choices streamed and not', async () => {
    llm = await startFakeLlm(() => ({ fault: 'empty_choices' }));
    const client = sdk(llm);
    const plain = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    expect(plain.choices).toEqual([]);
    const stream = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.every((chunk) => chunk.choices.length === 0)).toBe(true);
  });

  it('cuts a stream mid-way', async () => {
    llm = await startFakeLlm(() => ({ fault: 'cut_stream', afterChunks: 3 }));
    const stream = await sdk(llm).chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const received: string[] = [];
    const consume = async () => {
      for await (const chunk of stream) received.push(chunk.choices[0]?.delta.content ?? '');
    };
    await expect(consume()).rejects.toThrow();
    expect(received.length).toBe(3);
  });

  it('hangs until the client aborts, then closes without leftover sockets', async () => {
    llm = await startFakeLlm(() => ({ fault: 'hang' }));
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 150);
    await expect(
      sdk(llm).chat.completions.create(
        { model: 'm', messages: [{ role: 'user', content: 'x' }] },
        { signal: abort.signal },
      ),
    ).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    // a second hang left open is ended by close()
    const pending = sdk(llm).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
    await waitFor(() => llm!.chatRequests.length === 2, 5_000, 'the second request');
    await llm.close();
    await expect(pending).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  });

  it('waits delayMs before answering and between chunks: a reply asked for later, without delays, ends first', async () => {
    const replies = [
      { text: 'slow to start', delayMs: 400 },
      { text: 'slow between chunks', chunkDelayMs: 200 },
      { text: 'at once' },
    ];
    llm = await startFakeLlm((request) => replies[request.index]);
    const finished: string[] = [];
    const streamed = async () => {
      const stream = await sdk(llm!).chat.completions.create({
        model: 'm',
        messages: [{ role: 'user', content: 'x' }],
        stream: true,
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      finished.push(text);
    };
    const slowToStart = streamed();
    await waitFor(() => llm!.chatRequests.length === 1, 5_000, 'the first request');
    const slowBetweenChunks = streamed();
    await waitFor(() => llm!.chatRequests.length === 2, 5_000, 'the second request');
    await streamed();
    expect(finished).toEqual(['at once']);
    await Promise.all([slowToStart, slowBetweenChunks]);
    expect(finished.slice(1).sort()).toEqual(['slow between chunks', 'slow to start']);
  });
});
