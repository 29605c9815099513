import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/shared/events.js';
import { liveDockerSandbox, removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';

const toolCall = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
const step = (...calls: ReturnType<typeof toolCall>[]) => ({ text: '', toolCalls: calls });
const finish = (text: string) => ({ text, toolCalls: [toolCall('terminate', { status: 'success' })] });

function toolResults(events: CoreEvent[], sessionId: string): Extract<CoreEvent, { type: 'tool' }>[] {
  return events.filter(
    (event): event is Extract<CoreEvent, { type: 'tool' }> =>
      event.type === 'tool' && event.sessionId === sessionId && event.status !== 'calling',
  );
}

describe('the agent uses the sandbox through the session service (scripted LLM)', () => {
  let harness: CoreHarness | undefined;
  let sessionId = '';
  afterAll(async () => {
    await harness?.close();
    if (sessionId) await removeSessionSandbox(sessionId);
  });

  it('runs python and bash in one container, keeps state across turns, and leaves files in the session workspace', async () => {
    harness = await startCoreHarness(
      sequence(
        step(
          toolCall('python_execute', { code: 'answer = 6 * 7\nopen("answer.txt", "w").write(str(answer))\nanswer' }),
        ),
        step(toolCall('bash', { command: 'cat answer.txt && echo " from bash in $PWD"' })),
        finish('Wrote answer.txt.'),
        step(toolCall('python_execute', { code: 'answer + 1' })),
        finish('Still remembered.'),
      ),
    );
    const first = harness.service.start({ task: 'Compute 6*7 into answer.txt' });
    sessionId = first.sessionId;
    expect(await first.done).toMatchObject({ status: 'finished', result: 'Wrote answer.txt.' });
    const container = liveDockerSandbox(sessionId)?.containerId;
    expect(container).toBeDefined();

    const second = harness.service.start({ task: 'Add one', sessionId });
    expect(await second.done).toMatchObject({ status: 'finished', result: 'Still remembered.' });
    expect(liveDockerSandbox(sessionId)?.containerId).toBe(container);

    const results = toolResults(harness.events, sessionId).filter((event) => event.name !== 'terminate');
    expect(results.map((event) => [event.name, event.status, event.output])).toEqual([
      ['python_execute', 'done', '42'],
      ['bash', 'done', '42 from bash in /workspace\n[exit code 0]'],
      ['python_execute', 'done', '43'],
    ]);
    const workspace = harness.store.getSession(sessionId)?.workspace ?? '';
    expect(readFileSync(join(workspace, 'answer.txt'), 'utf8')).toBe('42');
    // the session's own workspace: the host user's, or the image user's when the host user is root
    expect(statSync(join(workspace, 'answer.txt')).uid).toBe(process.getuid?.() === 0 ? 1000 : process.getuid?.());
  });
});
