import { afterAll, describe, expect, it } from 'vitest';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import type { ScriptRequest } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

/** What the model read of the last tool call, from the request the fake server recorded. */
function lastToolMessage(request: ScriptRequest): string {
  const messages = request.body.messages as { role: string; content: string }[];
  return messages.filter((message) => message.role === 'tool').at(-1)?.content ?? '';
}

describe.each(['docker', 'local'] as const)('output larger than the tool limit (sandbox %s)', (mode) => {
  let harness: CoreHarness | undefined;
  let sessionId = '';
  afterAll(async () => {
    await harness?.close();
    if (sessionId && mode === 'docker') await removeSessionSandbox(sessionId);
  });

  it('keeps head and tail with a note, and the exit code or the error always reaches the model', async () => {
    const steps = [
      call('bash', { command: 'seq 1 2000000; exit 3' }),
      call('bash', { command: 'seq 1 2000000; (exit 4)' }),
      call('python_execute', { code: 'for i in range(400000):\n    print(i)\nraise ValueError("boom at the end")' }),
    ];
    harness = await startCoreHarness(
      (request) =>
        request.index < steps.length
          ? { toolCalls: [steps[request.index]] }
          : { text: 'done', toolCalls: [call('terminate', { status: 'success' })] },
      { settings: { sandbox: { mode } } },
    );
    const run = harness.service.start({ task: 'Print a lot' });
    sessionId = run.sessionId;
    expect(await run.done).toMatchObject({ status: 'finished' });
    const [, afterExit, afterStatus, afterPython] = harness.llm.chatRequests.map(lastToolMessage);

    // more than the shell keeps in memory (1 M characters): the note counts everything left out
    expect(afterExit).toMatch(/^1\n2\n3\n/);
    expect(afterExit).toMatch(/\n\[\.\.\. \d+ characters of output cut \(limit \d+\) \.\.\.\]\n/);
    const cut = Number(/\[\.\.\. (\d+) characters/.exec(afterExit)?.[1]);
    expect(cut).toBeGreaterThan(14_000_000);
    expect(afterExit).toMatch(/\n1999999\n2000000\n(exit\n)?\[The shell exited \(code 3\)\./);
    expect(afterExit.length).toBeLessThanOrEqual(10_000);

    expect(afterStatus).toMatch(/^1\n2\n3\n/);
    expect(afterStatus).toMatch(/\n1999999\n2000000\n\[exit code 4\]$/);

    expect(afterPython).toMatch(/^0\n1\n2\n/);
    expect(afterPython).toMatch(/\[\.\.\. \d+ characters of output cut/);
    expect(afterPython).toMatch(/\n399998\n399999\nTraceback \(most recent call last\):\n/);
    expect(afterPython).toMatch(/ValueError: boom at the end\nError: The code raised an exception/);
  });
});
