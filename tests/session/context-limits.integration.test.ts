import { afterEach, describe, expect, it } from 'vitest';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import type { ScriptRequest } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
/** A model with a small context: the agent's system prompt and tool schemas leave a few thousand tokens. */
const SMALL_MODEL = { contextWindow: 9_000, maxTokens: 500 };

function lines(prefix: string, count: number): string {
  return Array.from({ length: count }, (_, line) => `${prefix} line ${line}: the quick brown fox ${line * 7}`).join(
    '\n',
  );
}

describe('text larger than the context window', () => {
  let harness: CoreHarness | undefined;
  const sessions: string[] = [];
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    await Promise.all(sessions.splice(0).map((id) => removeSessionSandbox(id)));
  });

  it.each(['agent', 'planning', 'plan_act'] as const)(
    'a task larger than the context fails the run at once with a clear error (%s mode): nothing is sent or cut',
    async (mode) => {
      harness = await startCoreHarness(() => ({ text: 'never asked' }), { llmConfig: SMALL_MODEL });
      const task = `Summarise this:\n${lines('task', 3_000)}`;
      const run = harness.service.start({ task, mode });
      const result = await run.done;
      expect(result.status).toBe('failed');
      expect(harness.llm.chatRequests).toHaveLength(0);
      const errors = harness.events.filter((event) => event.type === 'error' && event.sessionId === run.sessionId);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        code: 'context_length',
        message: expect.stringMatching(
          /the task and the system prompt take \d{5} tokens, more than the context of the model: model test-model has room for \d{4} \(contextWindow 9000, maxTokens 500, tools \d+\)/,
        ),
        hint: expect.stringMatching(/Shorten the task, or save the long text in a file/),
      });
      expect(harness.events.some((event) => event.type === 'done' && event.status === 'finished')).toBe(false);
    },
  );

  it('a tool output larger than what fits is cut for the model, head and tail kept, with a visible note', async () => {
    const code = `print(${JSON.stringify(lines('out', 250))})`;
    harness = await startCoreHarness(
      (request: ScriptRequest) =>
        request.index === 0
          ? { toolCalls: [call('python_execute', { code })] }
          : { text: 'read it', toolCalls: [call('terminate', { status: 'success' })] },
      { llmConfig: SMALL_MODEL, settings: { sandbox: { mode: 'local' } } },
    );
    const run = harness.service.start({ task: 'Print the report' });
    sessions.push(run.sessionId);
    expect(await run.done).toMatchObject({ status: 'finished' });
    const sent = harness.llm.chatRequests[1].body.messages as { role: string; content: string }[];
    expect(sent.find((message) => message.role === 'user')?.content).toBe('Print the report');
    const tool = sent.find((message) => message.role === 'tool')?.content ?? '';
    expect(tool.startsWith('out line 0: the quick brown fox 0\n')).toBe(true);
    expect(tool).toMatch(/\[\.\.\. \d+ characters cut here to fit the model's context window \.\.\.\]/);
    expect(tool.endsWith('out line 249: the quick brown fox 1743')).toBe(true);
    const notices = harness.events.filter((event) => event.type === 'notice' && event.code === 'context_fitted');
    expect(notices.length).toBeGreaterThan(0);
  });
});
