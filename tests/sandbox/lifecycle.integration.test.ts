import { afterAll, describe, expect, it } from 'vitest';
import { SANDBOX_LABEL, SESSION_LABEL } from '../../src/main/sandbox/container-spec.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { bashTool } from '../../src/main/tool/bash.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import type { TestToolContext } from '../support/tool-context.js';
import { call, closeSandbox, containerIdOf, sandboxContext, textOf } from './sandbox-test-kit.js';
import { waitFor } from '../support/wait-for.js';

async function containersOf(sessionId: string): Promise<{ id: string; state: string }[]> {
  const found = await dockerClient().listContainers({
    all: true,
    filters: { label: [`${SESSION_LABEL}=${sessionId}`] },
  });
  return found.map((info) => ({ id: info.Id, state: info.State }));
}

describe('sandbox container lifecycle', () => {
  const contexts: TestToolContext[] = [];
  const context = (settings: Parameters<typeof sandboxContext>[0] = {}): TestToolContext => {
    const ctx = sandboxContext(settings);
    contexts.push(ctx);
    return ctx;
  };
  afterAll(async () => {
    await Promise.all(contexts.map(closeSandbox));
  });

  it('creates the container lazily at the first call, labelled with the session, and reuses it across steps', async () => {
    const ctx = context();
    expect(await containersOf(ctx.sessionId)).toEqual([]);
    await call(pythonExecuteTool, { code: 'x = 1' }, ctx);
    const created = await containersOf(ctx.sessionId);
    expect(created).toHaveLength(1);
    expect(created[0]?.state).toBe('running');
    await call(bashTool, { command: 'echo step two' }, ctx);
    await call(pythonExecuteTool, { code: 'x += 1' }, ctx);
    expect(await containersOf(ctx.sessionId)).toEqual(created);
    const labels = (
      await dockerClient()
        .getContainer(created[0]?.id ?? '')
        .inspect()
    ).Config.Labels;
    expect(labels[SANDBOX_LABEL]).toBe('1');
    expect(labels[SESSION_LABEL]).toBe(ctx.sessionId);
  });

  it('keeps the container across turns: disposing the session resources stops it, the next turn starts it again', async () => {
    const ctx = context();
    await call(pythonExecuteTool, { code: 'open("kept.txt", "w").write("turn one")' }, ctx);
    const [first] = await containersOf(ctx.sessionId);
    await ctx.session.release();
    expect((await containersOf(ctx.sessionId))[0]).toEqual({ id: first?.id, state: 'exited' });
    const nextTurn = await call(pythonExecuteTool, { code: 'print(open("kept.txt").read())' }, ctx);
    expect(nextTurn.output).toContain('turn one');
    expect(nextTurn.output).toMatch(/Reconnected to this session's existing sandbox container/);
    expect(await containersOf(ctx.sessionId)).toEqual([{ id: first?.id, state: 'running' }]);
  });

  it('stops the container after the idle timeout and starts it again on the next call, saying state was reset', async () => {
    const ctx = context({ settings: { sandbox: { idleTimeoutMs: 1000 } } });
    await call(pythonExecuteTool, { code: 'idle_var = 5' }, ctx);
    await waitFor(
      async () => (await containersOf(ctx.sessionId))[0]?.state === 'exited',
      10_000,
      'the container to stop',
      200,
    );
    const after = await call(pythonExecuteTool, { code: 'print("back")\nidle_var' }, ctx);
    expect(after.output).toContain('back');
    expect(after.output).toMatch(/stopped after .* min without use/);
    expect(after.output).toContain("NameError: name 'idle_var' is not defined");
  });

  it('removes the container with its session', async () => {
    const ctx = context();
    await call(bashTool, { command: 'true' }, ctx);
    expect(await containersOf(ctx.sessionId)).toHaveLength(1);
    await removeSessionSandbox(ctx.sessionId);
    expect(await containersOf(ctx.sessionId)).toEqual([]);
    const refused = await call(bashTool, { command: 'true' }, ctx);
    expect(refused.error).toMatch(/session has ended/);
  });

  it('recovers from the container dying mid-call (engine restart, kill) with a new container and says state was lost', async () => {
    const ctx = context();
    await call(pythonExecuteTool, { code: 'precious = 42' }, ctx);
    const before = containerIdOf(ctx) ?? '';
    const running = call(pythonExecuteTool, { code: 'import time\ntime.sleep(30)' }, ctx);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await dockerClient().getContainer(before).kill();
    const interrupted = await running;
    expect(textOf(interrupted)).toMatch(/connection to the sandbox was lost/);
    expect(textOf(interrupted)).toMatch(/state .*was lost/);
    const after = await call(pythonExecuteTool, { code: 'precious' }, ctx);
    expect(after.output).toMatch(/A new container was started/);
    expect(after.output).toContain("NameError: name 'precious' is not defined");
    expect(containerIdOf(ctx)).not.toBe(before);
    expect((await containersOf(ctx.sessionId)).map((container) => container.id)).toEqual([containerIdOf(ctx)]);
  });

  it('notices a container restarted behind its back between calls and replaces it', async () => {
    const ctx = context();
    await call(bashTool, { command: 'export MOOD=calm' }, ctx);
    const before = containerIdOf(ctx) ?? '';
    await dockerClient().getContainer(before).restart({ t: 0 });
    const after = await call(bashTool, { command: 'echo "[$MOOD]"' }, ctx);
    expect(after.output).toMatch(/A new container was started/);
    expect(after.output).toContain('[]');
    expect(containerIdOf(ctx)).not.toBe(before);
  });

  it('a configured image that is missing is pulled with progress, and a failed pull says how to build it', async () => {
    const ctx = context({ settings: { sandbox: { image: 'manus-missing-image:never' } } });
    const result = await call(pythonExecuteTool, { code: 'print(1)' }, ctx);
    expect(result.error).toMatch(/manus-missing-image:never is not on this machine and could not be pulled/);
    expect(result.error).toMatch(/manus sandbox build/);
    const progress = ctx.events.filter((event) => event.type === 'tool' && event.status === 'calling');
    expect(progress.map((event) => (event.type === 'tool' ? event.progress : '')).join('')).toMatch(
      /missing: pulling it/,
    );
    expect(await containersOf(ctx.sessionId)).toEqual([]);
  });
});
