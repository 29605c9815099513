import { describe, expect, it } from 'vitest';
import { sequence } from '../support/fake-llm/index.js';
import { failure, fakeLlmClient } from './llm-fixture.js';

const question = [{ role: 'user' as const, content: 'question?' }];
const tools = [
  {
    name: 'bash',
    description: 'Run a shell command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
];

describe('streamed tool calls without an index (SGLang)', () => {
  it('assembles two parallel calls by id and order, with their whole arguments', async () => {
    const { llm } = await fakeLlmClient(
      sequence({
        toolCallDeltas: 'no_index',
        toolCalls: [
          { id: 'call_a', name: 'bash', arguments: { command: 'ls -la /workspace' } },
          { id: 'call_b', name: 'bash', arguments: { command: 'cat notes.txt' } },
        ],
      }),
    );
    const reply = await llm.askTool(question, { tools });
    expect(reply.toolCalls).toEqual([
      { id: 'call_a', name: 'bash', arguments: '{"command":"ls -la /workspace"}' },
      { id: 'call_b', name: 'bash', arguments: '{"command":"cat notes.txt"}' },
    ]);
  });
});

describe('error bodies the SDK cannot read by itself', () => {
  it("shows Gemini's JSON-array error body, with the key in it redacted", async () => {
    const apiKey = 'AIzaSyA-secret-key-for-the-test-0123456789';
    const body = JSON.stringify([
      {
        error: {
          code: 400,
          message: `Invalid JSON payload received. Unknown name "additionalProperties" (key ${apiKey})`,
          status: 'INVALID_ARGUMENT',
        },
      },
    ]);
    const { llm } = await fakeLlmClient(
      () => ({ fault: 'raw_error', status: 400, body, contentType: 'application/json' }),
      { apiKey, model: 'gemini-2.0-flash' },
    );
    const error = await failure(llm.ask(question));
    expect(error.code).toBe('bad_request');
    expect(error.message).toContain('Unknown name "additionalProperties"');
    expect(error.message).not.toContain('no body');
    expect(error.message).not.toContain(apiKey);
    expect(error.message).toContain('[redacted]');
  });

  it('shows a plain-text body and an HTML error page as one readable line', async () => {
    const { llm } = await fakeLlmClient(
      sequence(
        { fault: 'raw_error', status: 400, body: 'model "qwen3" not loaded: try again with a loaded model\n' },
        {
          fault: 'raw_error',
          status: 403,
          contentType: 'text/html',
          body: '<html><head><style>p{}</style></head><body><h1>403 Forbidden</h1><p>Blocked by the proxy</p></body></html>',
        },
      ),
      { maxAttempts: 1 },
    );
    const plain = await failure(llm.ask(question));
    expect(plain.message).toMatch(/request refused \(HTTP 400\) for model fake-model: model "qwen3" not loaded/);
    const html = await failure(llm.ask(question));
    expect(html.code).toBe('forbidden');
    expect(html.message).toContain('403 Forbidden Blocked by the proxy');
    expect(html.message).not.toMatch(/<|no body/);
  });

  it('reads {"error": "text"} (Ollama) and {"detail": ...} (vLLM) bodies', async () => {
    const { llm } = await fakeLlmClient(
      sequence(
        {
          fault: 'raw_error',
          status: 404,
          contentType: 'application/json',
          body: '{"error":"model \\"llama9\\" not found, try pulling it first"}',
        },
        {
          fault: 'raw_error',
          status: 400,
          contentType: 'application/json',
          body: '{"detail":[{"loc":["body","max_tokens"],"msg":"Input should be less than 8192"}]}',
        },
      ),
      { maxAttempts: 1 },
    );
    expect((await failure(llm.ask(question))).message).toContain('model "llama9" not found, try pulling it first');
    expect((await failure(llm.ask(question))).message).toContain('Input should be less than 8192');
  });
});
