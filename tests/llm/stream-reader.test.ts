import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { readStream } from '../../src/main/llm/stream-reader.js';

type ToolDelta = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];

function chunks(deltas: ToolDelta[][]): AsyncIterable<ChatCompletionChunk> {
  return (async function* () {
    for (const tool_calls of deltas) {
      yield {
        id: 'x',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'm',
        choices: [{ index: 0, delta: { tool_calls }, finish_reason: null }],
      };
    }
  })();
}

describe('tool-call assembly quirks of compatible servers', () => {
  it('separates whole calls that all claim index 0 by their ids', async () => {
    const reply = await readStream(
      chunks([
        [{ index: 0, id: 'a', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }],
        [{ index: 0, id: 'b', type: 'function', function: { name: 'terminate', arguments: '{}' } }],
      ]),
      {},
    );
    expect(reply.toolCalls).toEqual([
      { id: 'a', name: 'bash', arguments: '{"command":"ls"}' },
      { id: 'b', name: 'terminate', arguments: '{}' },
    ]);
  });

  it('does not double a name repeated on every piece, and names calls without ids', async () => {
    const reply = await readStream(
      chunks([
        [{ index: 0, function: { name: 'bash', arguments: '{"comm' } }],
        [{ index: 0, function: { name: 'bash', arguments: 'and":"pwd"}' } }],
      ]),
      {},
    );
    expect(reply.toolCalls).toEqual([
      { id: expect.stringMatching(/^call_\w{16}$/), name: 'bash', arguments: '{"command":"pwd"}' },
    ]);
  });

  it('assembles calls without index by id, and without index or id by name and order', async () => {
    const reply = await readStream(
      chunks([
        [{ id: 'a', type: 'function', function: { name: 'bash', arguments: '' } } as ToolDelta],
        [{ function: { arguments: '{"command":' } } as ToolDelta],
        [{ function: { arguments: '"ls"}' } } as ToolDelta],
        [{ function: { name: 'bash', arguments: '{"comm' } } as ToolDelta],
        [{ function: { name: 'bash', arguments: 'and":"pwd"}' } } as ToolDelta],
        [{ function: { name: 'terminate', arguments: '{}' } } as ToolDelta],
      ]),
      {},
    );
    expect(reply.toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['bash', '{"command":"ls"}'],
      ['bash', '{"command":"pwd"}'],
      ['terminate', '{}'],
    ]);
    expect(reply.toolCalls[0].id).toBe('a');
  });
});
