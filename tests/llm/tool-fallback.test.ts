import { describe, expect, it } from 'vitest';
import { parseTextToolCalls } from '../../src/main/llm/text-tool-calls.js';
import type { ChatMessage } from '../../src/shared/chat-message.js';
import type { ScriptRequest } from '../support/fake-llm/index.js';
import { fakeLlmClient, noticeCollector } from './llm-fixture.js';

const tools = [
  {
    name: 'bash',
    description: 'Run a shell command',
    parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
  {
    name: 'terminate',
    description: 'Finish',
    parameters: { type: 'object', properties: { status: { type: 'string' } } },
  },
];

/** Like Ollama with a model that has no tool template: any request with tools is refused. */
function modelWithoutTools(reply: string) {
  return (request: ScriptRequest) =>
    request.body.tools
      ? { fault: 'status' as const, status: 400, message: 'registry.ollama.ai/library/gemma:2b does not support tools' }
      : { text: reply };
}

const jsonReply =
  'I will list the files.\n```json\n{"tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}]}\n```';

describe('models without tool calling', () => {
  it('falls back to tools in the prompt when the provider refuses tools, with a notice naming the model', async () => {
    const { server, llm } = await fakeLlmClient(modelWithoutTools(jsonReply), { model: 'gemma:2b' });
    const { notices, onNotice } = noticeCollector();
    const deltas: string[] = [];
    const reply = await llm.askTool(
      [
        { role: 'system', content: 'You are Manus.' },
        { role: 'user', content: 'list files' },
      ],
      { tools, onNotice, onDelta: (chunk) => deltas.push(chunk) },
    );
    expect(reply.toolCalls).toHaveLength(1);
    expect(reply.toolCalls[0]).toMatchObject({ name: 'bash', arguments: '{"command":"ls"}' });
    expect(reply.text).toBe('I will list the files.');
    expect(reply.finishReason).toBe('tool_calls');
    expect(deltas.join('')).toBe('I will list the files.');
    expect(notices).toEqual([{ code: 'no_tool_support', text: expect.stringContaining('gemma:2b') }]);

    expect(server.chatRequests).toHaveLength(2);
    const fallback = server.chatRequests[1].body;
    expect(fallback.tools).toBeUndefined();
    expect(fallback.messages[0].content).toMatch(/^You are Manus\.\n[\s\S]*- bash: Run a shell command/);
    expect(fallback.messages[0].content).toContain('"tool_calls"');

    // later requests go straight to the fallback, and the notice is not repeated
    await llm.askTool([{ role: 'user', content: 'again' }], { tools, onNotice });
    expect(server.chatRequests).toHaveLength(3);
    expect(server.chatRequests[2].body.tools).toBeUndefined();
    expect(notices).toHaveLength(1);
  });

  it('uses the fallback at once when toolCalling is false, and rewrites past calls and results as text', async () => {
    const { server, llm } = await fakeLlmClient(
      () => ({ text: 'All done. {"tool_calls":[{"name":"terminate","arguments":{"status":"success"}}]}' }),
      {
        toolCalling: false,
      },
    );
    const memory: ChatMessage[] = [
      { role: 'user', content: 'list files' },
      { role: 'assistant', content: null, toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"ls"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'bash', content: 'a.txt' },
    ];
    const { notices, onNotice } = noticeCollector();
    const reply = await llm.askTool(memory, { tools, toolChoice: 'required', onNotice });
    expect(reply.toolCalls.map((call) => [call.name, call.arguments])).toEqual([['terminate', '{"status":"success"}']]);
    expect(reply.text).toBe('All done.');
    expect(notices.map((notice) => notice.code)).toEqual(['no_tool_support']);
    expect(server.chatRequests).toHaveLength(1);
    const sent = server.chatRequests[0].body.messages;
    expect(sent.map((message: { role: string }) => message.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(sent[0].content).toContain('You must call at least one tool');
    expect(sent[2].content).toContain('{"tool_calls":[{"name":"bash","arguments":{"command":"ls"}}]}');
    expect(sent[3].content).toBe('Tool result of bash (call c1):\na.txt');
  });

  it('returns plain text when the model answers without calls', async () => {
    const { llm } = await fakeLlmClient(modelWithoutTools('The answer is 4.'));
    const reply = await llm.askTool([{ role: 'user', content: '2+2?' }], { tools });
    expect(reply.text).toBe('The answer is 4.');
    expect(reply.toolCalls).toEqual([]);
  });

  it('is a clear no_tool_support error when toolCalling is forced on', async () => {
    const { llm } = await fakeLlmClient(modelWithoutTools('unused'), { model: 'gemma:2b', toolCalling: true });
    await expect(llm.askTool([{ role: 'user', content: 'x' }], { tools })).rejects.toMatchObject({
      code: 'no_tool_support',
      message: expect.stringMatching(/model gemma:2b does not support tool calling/),
    });
  });

  it('parses calls from fences, bare JSON, several calls and the single-call shape', () => {
    expect(parseTextToolCalls(jsonReply, tools).toolCalls.map((call) => call.name)).toEqual(['bash']);
    const several = parseTextToolCalls(
      'Doing two things: {"tool_calls": [{"name": "bash", "arguments": {"command": "echo \\"}{\\""}}, {"function": {"name": "terminate", "arguments": "{\\"status\\":\\"success\\"}"}}]} then stop',
      tools,
    );
    expect(several.text).toBe('Doing two things:  then stop');
    expect(several.toolCalls.map((call) => [call.name, call.arguments])).toEqual([
      ['bash', '{"command":"echo \\"}{\\""}'],
      ['terminate', '{"status":"success"}'],
    ]);
    const single = parseTextToolCalls('```\n{"name": "bash", "arguments": {"command": "pwd"}}\n```', tools);
    expect(single.toolCalls.map((call) => call.arguments)).toEqual(['{"command":"pwd"}']);
    // JSON that is not a call stays text
    const notCall = parseTextToolCalls('The config is {"name": "value"} and ```json\n{"broken": \n```', tools);
    expect(notCall.toolCalls).toEqual([]);
    expect(notCall.text).toContain('{"name": "value"}');
    expect(new Set(several.toolCalls.map((call) => call.id)).size).toBe(2);
  });
});
