import { afterEach, describe, expect, it } from 'vitest';
import { CoreEventSchema } from '../../src/shared/events.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { BUILTIN_AGENTS } from '../../src/main/agent/agent-catalog.js';
import { BUILTIN_MODES } from '../../src/main/flow/mode-catalog.js';
import { ofType } from '../support/events-of-type.js';

const call = (name: string, args: unknown, id?: string) => ({ name, arguments: JSON.stringify(args), id });
const finish = (text: string) => ({ text, toolCalls: [call('terminate', { status: 'success' })] });

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('SessionService', () => {
  it('runs a task, storing every event before subscribers see it', async () => {
    harness = await startCoreHarness(sequence(finish('Hello from the agent.')));
    const seenStored: boolean[] = [];
    harness.service.subscribe((event) => {
      seenStored.push(harness!.store.listEvents(event.sessionId).some((stored) => stored.seq === event.seq));
    });
    const { sessionId, done } = harness.service.start({ task: 'Say hello' });
    expect(harness.store.getSession(sessionId)?.status).toBe('running');
    const result = await done;
    expect(result).toEqual({ sessionId, status: 'finished', result: 'Hello from the agent.' });
    expect(seenStored.every(Boolean)).toBe(true);
    const stored = harness.store.listEvents(sessionId);
    expect(stored.map((e) => e.seq)).toEqual(stored.map((_, i) => i + 1));
    for (const event of stored) expect(CoreEventSchema.safeParse(event).success).toBe(true);
    expect(stored[0]).toMatchObject({ type: 'session', action: 'created' });
    expect(stored.at(-1)).toMatchObject({ type: 'done', status: 'finished' });
    expect(ofType(stored, 'message').some((m) => m.role === 'user' && m.text === 'Say hello')).toBe(true);
    const session = harness.store.getSession(sessionId)!;
    expect(session).toMatchObject({ status: 'finished', title: 'Say hello', model: 'test-model' });
    expect(session.usage.totalTokens).toBeGreaterThan(0);
    expect(ofType(stored, 'usage').at(-1)?.session.totalTokens).toBe(session.usage.totalTokens);
  });

  it('continues a session with its memory after a restart', async () => {
    harness = await startCoreHarness(sequence(finish('First answer.'), finish('Second answer.')));
    const first = harness.service.start({ task: 'Remember the word PAPAYA' });
    await first.done;
    await harness.service.close();
    const restarted = harness.restart();
    const second = restarted.service.start({ task: 'Which word?', sessionId: first.sessionId });
    expect(second.sessionId).toBe(first.sessionId);
    expect(await second.done).toMatchObject({ status: 'finished', result: 'Second answer.' });
    const sent = JSON.stringify(harness.llm.chatRequests.at(-1)!.body.messages);
    expect(sent).toContain('Remember the word PAPAYA');
    expect(sent).toContain('First answer.');
    expect(sent).toContain('Which word?');
    await restarted.service.close();
    restarted.store.close();
  });

  it('ends an LLM failure as an error event with the session saved as failed', async () => {
    harness = await startCoreHarness(sequence({ fault: 'status', status: 401, message: 'Incorrect API key provided' }));
    const { sessionId, done } = harness.service.start({ task: 'anything' });
    expect(await done).toMatchObject({ status: 'failed' });
    const errors = ofType(harness.store.listEvents(sessionId), 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0].message.length).toBeGreaterThan(0);
    expect(harness.store.getSession(sessionId)?.status).toBe('failed');
  });

  it('asks the human and continues with the answer', async () => {
    harness = await startCoreHarness(
      sequence({ toolCalls: [call('ask_human', { inquire: 'Which colour?' }, 'q1')] }, finish('You chose blue.')),
    );
    harness.service.subscribe((event) => {
      if (event.type === 'ask' && event.status === 'waiting')
        harness!.service.answer(event.sessionId, event.askId, 'blue');
    });
    const { sessionId, done } = harness.service.start({ task: 'Pick a colour with me' });
    expect(await done).toMatchObject({ status: 'finished' });
    const asks = ofType(harness.store.listEvents(sessionId), 'ask');
    expect(asks.map((a) => a.status)).toEqual(['waiting', 'answered']);
    const toolMessage = harness.llm.chatRequests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ tool_call_id: 'q1', content: 'blue' });
  });

  it('tells the model when nobody can answer', async () => {
    harness = await startCoreHarness(
      sequence({ toolCalls: [call('ask_human', { inquire: 'Which colour?' }, 'q1')] }, finish('ok')),
      {
        service: { humanAvailable: false },
      },
    );
    await harness.service.start({ task: 'ask me' }).done;
    const toolMessage = harness.llm.chatRequests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage.content).toContain('Nobody can answer');
  });

  it('cancels within a second and keeps the session consistent for a follow-up', async () => {
    harness = await startCoreHarness(
      sequence({ toolCalls: [call('ask_human', { inquire: 'wait forever?' }, 'q1')] }, finish('Continued fine.')),
    );
    const { sessionId, done } = harness.service.start({ task: 'long task' });
    await new Promise<void>((resolve) => {
      const off = harness!.service.subscribe((event) => {
        if (event.type === 'ask' && event.status === 'waiting') {
          off();
          resolve();
        }
      });
    });
    await harness.service.cancel(sessionId);
    expect(await done).toMatchObject({ status: 'cancelled' });
    expect(harness.store.getSession(sessionId)?.status).toBe('cancelled');
    const followUp = harness.service.start({ task: 'go on', sessionId });
    expect(await followUp.done).toMatchObject({ status: 'finished', result: 'Continued fine.' });
    const messages = harness.llm.chatRequests.at(-1)!.body.messages;
    const calls = messages
      .flatMap((m: { tool_calls?: { id: string }[] }) => m.tool_calls ?? [])
      .map((c: { id: string }) => c.id);
    const answered = messages
      .filter((m: { role: string }) => m.role === 'tool')
      .map((m: { tool_call_id: string }) => m.tool_call_id);
    expect(answered).toEqual(calls);
  });

  it('refuses to start without a configured model, with a hint', async () => {
    harness = await startCoreHarness(sequence(finish('x')));
    const { SessionService } = await import('../../src/main/session/session-service.js');
    const bare = new SessionService({
      agents: BUILTIN_AGENTS,
      modes: BUILTIN_MODES,
      store: harness.store,
      dataDir: harness.dataDir,
      settings: () => ({ ...harness!.settings, llms: {}, defaultLlm: undefined }),
      llmFactory: () => {
        throw new Error('unused');
      },
    });
    expect(() => bare.start({ task: 'x' })).toThrow(/No language model is configured/);
  });
});
