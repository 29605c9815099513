import { describe, expect, it } from 'vitest';
import { parseTextToolCalls } from '../../src/main/llm/text-tool-calls.js';
import { sequence, toolCallsAsText } from '../support/fake-llm/index.js';
import { fakeLlmClient, noticeCollector } from './llm-fixture.js';

const tools = [
  {
    name: 'bash',
    description: 'Run a shell command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
  { name: 'terminate', description: 'Finish', parameters: { type: 'object', properties: {} } },
];
const question = [{ role: 'user' as const, content: 'go' }];

describe('tool calls written as text while the tools API is offered', () => {
  it('streams the prose, holds back the calls, and returns them in order', async () => {
    const text = toolCallsAsText(
      'hermes',
      [
        { name: 'bash', arguments: { command: 'ls' } },
        { name: 'bash', arguments: { command: 'pwd' } },
      ],
      'Let me look around first.',
    );
    const { server, llm } = await fakeLlmClient(sequence({ text }));
    const deltas: string[] = [];
    const { notices, onNotice } = noticeCollector();
    const reply = await llm.askTool(question, { tools, onDelta: (chunk) => deltas.push(chunk), onNotice });
    expect(server.chatRequests[0].body.tools).toHaveLength(2);
    expect(reply.toolCalls.map((call) => call.arguments)).toEqual(['{"command":"ls"}', '{"command":"pwd"}']);
    expect(reply.text).toBe('Let me look around first.');
    expect(reply.finishReason).toBe('tool_calls');
    expect(deltas[0]).toBe('Let');
    expect(deltas.join('')).toBe('Let me look around first.');
    expect(notices.map((notice) => notice.code)).toEqual(['text_tool_calls']);
  });

  it('passes on JSON and code that are not calls, whole and in order', async () => {
    const text =
      'A person: {"name": "Ada", "arguments": {"x": 1}} and code ```python\nd = {"name": "bash"}\n``` and <b>bold</b>.';
    const { llm } = await fakeLlmClient(sequence({ text }));
    const deltas: string[] = [];
    const reply = await llm.askTool(question, { tools, onDelta: (chunk) => deltas.push(chunk) });
    expect(reply.toolCalls).toEqual([]);
    expect(reply.text).toBe(text);
    expect(deltas.join('')).toBe(text);
  });

  it('leaves real tool calls alone and streams their text', async () => {
    const { llm } = await fakeLlmClient(
      sequence({ text: 'Running {it} now.', toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }),
    );
    const deltas: string[] = [];
    const reply = await llm.askTool(question, { tools, onDelta: (chunk) => deltas.push(chunk) });
    expect(reply.toolCalls.map((call) => call.name)).toEqual(['bash']);
    expect(deltas.join('')).toBe('Running {it} now.');
  });

  it('reads a call whose closing tag was cut off, a call without arguments in a tag, and OpenAI-shaped calls', () => {
    expect(
      parseTextToolCalls('<tool_call>\n{"name": "bash", "arguments": {"command": "ls"}}', tools).toolCalls,
    ).toEqual([{ id: expect.any(String), name: 'bash', arguments: '{"command":"ls"}' }]);
    expect(parseTextToolCalls('<tool_call>{"name": "terminate"}</tool_call>', tools).toolCalls[0]).toMatchObject({
      name: 'terminate',
      arguments: '{}',
    });
    const openaiShaped = parseTextToolCalls(
      '[{"type": "function", "function": {"name": "bash", "arguments": "{\\"command\\": \\"id\\"}"}}]',
      tools,
    );
    expect(openaiShaped.toolCalls.map((call) => call.arguments)).toEqual(['{"command": "id"}']);
    // a list with one unknown tool is not a list of calls
    expect(
      parseTextToolCalls(
        '{"tool_calls": [{"name": "bash", "arguments": {}}, {"name": "rm_rf", "arguments": {}}]}',
        tools,
      ).toolCalls,
    ).toEqual([]);
  });
});
