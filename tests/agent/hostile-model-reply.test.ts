import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEventOf } from '../../src/shared/events.js';
import { MAX_TOOL_ARGUMENT_DEPTH } from '../../src/main/llm/tool-arguments.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { sequence, type FakeReply } from '../support/fake-llm/index.js';

const harnesses: CoreHarness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function start(replies: FakeReply[], maxReplyChars?: number): Promise<CoreHarness> {
  const harness = await startCoreHarness(sequence(...replies), {
    llmConfig: { maxAttempts: 1, ...(maxReplyChars ? { maxReplyChars } : {}) },
  });
  harnesses.push(harness);
  return harness;
}

function toolMessages(harness: CoreHarness): string[] {
  const last = harness.llm.chatRequests.at(-1);
  return (last?.body.messages ?? [])
    .filter((message: { role: string }) => message.role === 'tool')
    .map((message: { content: unknown }) => String(message.content));
}

const finish = { text: 'Done.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };

describe('a hostile model reply', () => {
  it('tool-call arguments nested 100,000 deep are a tool error the model reads, and the run goes on', async () => {
    const deep = `{"status": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const harness = await start([{ text: 'Deep.', toolCalls: [{ name: 'terminate', arguments: deep }] }, finish]);
    const { done } = harness.service.start({ task: 'Go deep' });
    expect((await done).status).toBe('finished');
    expect(toolMessages(harness)).toEqual([
      `Error: The arguments of terminate cannot be read (they nest 100001 levels deep, more than the ${MAX_TOOL_ARGUMENT_DEPTH} allowed). Send them as one JSON object.`,
    ]);
    const failed = harness.events.find(
      (event): event is CoreEventOf<'tool'> => event.type === 'tool' && event.status === 'error',
    );
    // what is kept of the arguments is clipped text, never the nested value
    expect(typeof failed?.args).toBe('string');
    expect(String(failed?.args).length).toBeLessThanOrEqual(100_000);
  });

  it('a reply streamed past the size limit is cut with reply_too_large, and the run fails cleanly', async () => {
    const harness = await start([{ text: 'flood '.repeat(20_000) }], 10_000);
    const { done } = harness.service.start({ task: 'Talk a lot' });
    expect((await done).status).toBe('failed');
    const error = harness.events.find((event): event is CoreEventOf<'error'> => event.type === 'error');
    expect(error?.code).toBe('reply_too_large');
    expect(error?.message).toContain('the reply went past 10000 characters; the stream was cut there');
    const streamed = harness.events
      .filter((event): event is CoreEventOf<'message'> => event.type === 'message' && event.delta === true)
      .reduce((sum, event) => sum + event.text.length, 0);
    expect(streamed).toBeLessThanOrEqual(10_000);
  });

  it('tool-call arguments streamed past the size limit count too', async () => {
    const harness = await start(
      [{ toolCalls: [{ name: 'terminate', arguments: { status: 'success', pad: 'p'.repeat(50_000) } }] }],
      10_000,
    );
    const { done } = harness.service.start({ task: 'Call big' });
    expect((await done).status).toBe('failed');
    expect(harness.events.find((event) => event.type === 'error')).toMatchObject({ code: 'reply_too_large' });
  });
});
