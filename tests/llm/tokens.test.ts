import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/main/llm/tokens.js';
import { isReasoningModel } from '../../src/main/llm/model-traits.js';

describe('token counting', () => {
  it('counts text with the model family tokenizer', () => {
    const modern = createTokenCounter('gpt-4o', { vision: false });
    const legacy = createTokenCounter('gpt-4-0613', { vision: false });
    expect(modern.text('Paris is the capital of France.')).toBe(7);
    expect(legacy.text('Paris is the capital of France.')).toBe(7);
    // the two vocabularies differ on non-English text
    const text = 'Привет, как дела? Сегодня хорошая погода.';
    expect(modern.text(text)).not.toBe(legacy.text(text));
  });

  it('counts tokenizer special tokens as the plain text they are, in both vocabularies', () => {
    for (const model of ['gpt-4o', 'gpt-4-0613']) {
      const counter = createTokenCounter(model, { vision: false });
      const text = 'a <|endoftext|> b <|im_start|> c <|fim_prefix|> d <|endofprompt|>';
      // "<|endoftext|>" alone is one special token; as text it is several
      expect(counter.text('<|endoftext|>')).toBeGreaterThan(1);
      expect(counter.text(text)).toBeGreaterThan(counter.text('a b c d'));
      expect(counter.messages([{ role: 'tool', toolCallId: 'x', content: text }])).toBeGreaterThan(10);
    }
  });

  it('counts messages with their chat framing, tool calls and tool schemas', () => {
    const counter = createTokenCounter('gpt-4o', { vision: false });
    const plain = counter.messages([{ role: 'user', content: 'hello' }]);
    // 3 framing + "user" + "hello" + 3 reply priming
    expect(plain).toBe(3 + 1 + 1 + 3);
    const withCall = counter.message({
      role: 'assistant',
      content: null,
      toolCalls: [{ id: 'call_1', name: 'bash', arguments: '{"command":"ls -la"}' }],
    });
    expect(withCall).toBeGreaterThan(15);
    const schema = {
      name: 'bash',
      description: 'Run a shell command in the sandbox',
      parameters: { type: 'object', properties: { command: { type: 'string' } } },
    };
    expect(counter.tools([])).toBe(0);
    expect(counter.tools([schema, { ...schema, name: 'python' }])).toBeGreaterThan(2 * counter.tools([schema]) - 20);
  });

  it('counts long unbroken runs (base64, minified code)', () => {
    const counter = createTokenCounter('gpt-4o', { vision: false });
    const tokens = counter.text('x'.repeat(200_000));
    expect(tokens).toBeGreaterThan(20_000);
    expect(tokens).toBeLessThan(30_000);
  });

  it('memoises message counts but notices changed content', () => {
    const counter = createTokenCounter('gpt-4o', { vision: false });
    const message = { role: 'tool' as const, content: 'short', toolCallId: 'c' };
    const before = counter.message(message);
    message.content = 'a much longer output than before, with many more tokens in it';
    expect(counter.message(message)).toBeGreaterThan(before);
  });

  it('knows the reasoning model families', () => {
    for (const model of ['o1', 'o1-mini', 'o3-mini', 'o3', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'openai/o3-mini']) {
      expect(isReasoningModel(model), model).toBe(true);
    }
    for (const model of ['gpt-4o', 'gpt-4.1', 'llama3.1', 'deepseek-reasoner-lite', 'gpt-5-chat-latest']) {
      expect(isReasoningModel(model), model).toBe(false);
    }
  });
});
