import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/shared/events.js';
import { createLlm } from '../../src/main/llm/client.js';
import { ToolRefusals } from '../../src/main/llm/tool-fallback.js';
import { sequence, startFakeLlm, toolCallsAsText, type FakeReply } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { ofType } from '../support/events-of-type.js';

const finish = (text: string): FakeReply => ({
  text,
  toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
});
const create = (file: string, text: string) => ({
  name: 'str_replace_editor',
  arguments: { command: 'create', path: `/workspace/${file}`, file_text: text },
});

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function runTask(task: string, sessionId?: string) {
  const run = harness!.service.start({ task, sessionId });
  const result = await run.done;
  const workspace = harness!.store.getSession(run.sessionId)!.workspace;
  return { result, workspace, events: harness!.events.filter((e) => e.sessionId === run.sessionId) };
}

/** Everything the person saw the assistant write: streamed pieces and final messages. */
function assistantText(events: CoreEvent[]): string {
  return ofType(events, 'message')
    .filter((m) => m.role === 'assistant')
    .map((m) => m.text)
    .join('|');
}

describe('tool calls written as text, with the tools API offered', () => {
  it('runs a bare JSON call instead of ending "finished" having done nothing', async () => {
    harness = await startCoreHarness(
      sequence({ text: toolCallsAsText('bare', [create('hello.txt', 'hi there')]) }, finish('Wrote hello.txt.')),
    );
    const { result, workspace, events } = await runTask('write hello.txt');
    expect(result).toMatchObject({ status: 'finished', result: 'Wrote hello.txt.' });
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('hi there');
    const [first, second] = harness.llm.chatRequests;
    expect(first.body.tools.length).toBeGreaterThan(0);
    // the call goes back to the model as a real tool call with its result
    const assistant = second.body.messages.find((m: { role: string }) => m.role === 'assistant');
    expect(assistant.tool_calls[0].function).toMatchObject({ name: 'str_replace_editor' });
    const toolResult = second.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolResult.tool_call_id).toBe(assistant.tool_calls[0].id);
    expect(assistantText(events)).not.toContain('"arguments"');
    expect(ofType(events, 'notice').map((n) => n.code)).toContain('text_tool_calls');
  });

  it('runs several Hermes/Qwen <tool_call> blocks of one reply, showing only the prose', async () => {
    const reply = toolCallsAsText('hermes', [create('a.txt', 'A'), create('b.txt', 'B')], 'I will create both files.');
    harness = await startCoreHarness(sequence({ text: reply }, finish('Both written.')));
    const { result, workspace, events } = await runTask('write a.txt and b.txt');
    expect(result.status).toBe('finished');
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('A');
    expect(readFileSync(join(workspace, 'b.txt'), 'utf8')).toBe('B');
    expect(ofType(events, 'tool').filter((t) => t.status === 'done')).toHaveLength(3);
    const shown = assistantText(events);
    expect(shown).toContain('I will create both files.');
    expect(shown).not.toContain('tool_call');
    expect(shown).not.toContain('file_text');
  });

  it('runs a call in a ```json fence', async () => {
    const reply = toolCallsAsText('json_fence', [create('fenced.txt', 'from a fence')], 'Creating it now:');
    harness = await startCoreHarness(sequence({ text: reply }, finish('Done.')));
    const { result, workspace } = await runTask('write fenced.txt');
    expect(result.status).toBe('finished');
    expect(readFileSync(join(workspace, 'fenced.txt'), 'utf8')).toBe('from a fence');
  });

  it('does not mistake text that mentions JSON or unknown tools for a call', async () => {
    const answer =
      'A tool entry looks like {"name": "str_replace_editor"}; a made-up one would be ' +
      '{"name": "launch_rockets", "arguments": {"count": 3}}, and a config is ```json\n{"name": "value"}\n```';
    harness = await startCoreHarness(sequence({ text: answer }));
    const { result, events } = await runTask('explain tool entries');
    expect(result).toMatchObject({ status: 'finished', result: answer });
    expect(ofType(events, 'tool')).toHaveLength(0);
    expect(harness.llm.chatRequests).toHaveLength(1);
  });
});

describe('a provider that refuses the tools parameter', () => {
  it('falls back to the text protocol by itself for the rest of the session, with a note, and the run succeeds', async () => {
    const refusal = 'tools is not supported: "auto" tool choice requires --enable-auto-tool-choice';
    const llm = await startFakeLlm(undefined, { rejectTools: refusal });
    const toolRefusals = new ToolRefusals();
    harness = await startCoreHarness(
      sequence(
        { text: 'On it.\n```json\n' + JSON.stringify({ tool_calls: [create('t.txt', 'text protocol')] }) + '\n```' },
        { text: '```json\n{"tool_calls": [{"name": "terminate", "arguments": {"status": "success"}}]}\n```' },
        { text: 'Still here.\n<tool_call>\n{"name": "terminate", "arguments": {"status": "success"}}\n</tool_call>' },
      ),
      {
        llm,
        service: {
          // one ToolRefusals per core, as createAppCore has: later turns' clients go straight to the text protocol
          llmFactory: (config) => createLlm(config, { toolRefusals, retryTiming: { baseDelayMs: 5, maxDelayMs: 20 } }),
        },
      },
    );
    const first = await runTask('write t.txt');
    expect(first.result.status).toBe('finished');
    expect(readFileSync(join(first.workspace, 't.txt'), 'utf8')).toBe('text protocol');
    const notes = ofType(first.events, 'notice').filter((n) => n.code === 'no_tool_support');
    expect(notes).toHaveLength(1);
    expect(notes[0].text).toContain('--enable-auto-tool-choice');
    const [refused, ...rest] = llm.chatRequests;
    expect(refused.body.tools).toBeDefined();
    expect(rest.length).toBe(2);
    for (const request of rest) {
      expect(request.body.tools).toBeUndefined();
      expect(request.body.messages[0].content).toContain('# Tools');
    }

    const eventsBefore = harness.events.length;
    const second = await runTask('anything else?', first.result.sessionId);
    expect(second.result).toMatchObject({ status: 'finished', result: 'Still here.' });
    expect(llm.chatRequests).toHaveLength(4);
    expect(llm.chatRequests[3].body.tools).toBeUndefined();
    const secondTurn = harness.events.slice(eventsBefore);
    expect(ofType(secondTurn, 'notice').filter((n) => n.code === 'no_tool_support')).toHaveLength(0);
  });
});
