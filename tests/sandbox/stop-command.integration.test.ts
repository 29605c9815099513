import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { runQuietly } from '../../src/main/sandbox/docker-channel.js';
import { bashTool } from '../../src/main/tool/bash.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import { createToolContext, type TestToolContext } from '../support/tool-context.js';
import { call, closeSandbox, containerIdOf, textOf } from './sandbox-test-kit.js';

type Mode = 'docker' | 'local';

/** Whether a process whose command line contains `pattern` is still alive where the session's code runs. */
async function stillRunning(mode: Mode, ctx: TestToolContext, pattern: string): Promise<boolean> {
  if (mode === 'local') {
    try {
      execFileSync('pgrep', ['-f', pattern]);
      return true;
    } catch {
      return false;
    }
  }
  const id = containerIdOf(ctx);
  if (!id) throw new Error('no container');
  return (await runQuietly(dockerClient().getContainer(id), ['pgrep', '-f', pattern], 'root')) === 0;
}

/** A context sharing the session but with its own abort controller (a cancel is one-shot). */
function cancellable(ctx: TestToolContext): TestToolContext {
  const abort = new AbortController();
  return { ...ctx, abort, signal: abort.signal };
}

/** Resolves when the call has streamed `text` as progress: the command is running. */
function whenPrinted(ctx: TestToolContext, text: string): Promise<void> {
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      const printed = ctx.events.some(
        (event) => event.type === 'tool' && event.status === 'calling' && event.progress?.includes(text),
      );
      if (printed) {
        clearInterval(timer);
        resolve();
      }
    }, 20);
  });
}

describe.each<Mode>(['docker', 'local'])('a command that ignores Ctrl-C (sandbox %s)', (mode) => {
  let ctx: TestToolContext;
  // unique durations: the pattern a leftover would be found by; the pid keeps it unique on a host where other runs
  // of this file (local mode shares the host's process table) may be sleeping at the same time
  const tag = `${mode === 'docker' ? 4 : 5}${process.pid}`;

  beforeAll(() => {
    ctx = createToolContext({ settings: { sandbox: { mode, bashIdleSeconds: 2 } } });
  });
  afterAll(async () => {
    if (mode === 'docker') await closeSandbox(ctx);
    await ctx.session.release();
  });

  it('is killed with its whole process group at the timeout; the shell restarts and says its state was lost', async () => {
    await call(bashTool, { command: 'mkdir -p sub && cd sub && export KEPT=before' }, ctx);
    // it keeps printing, so only the timeout ends the call
    const result = await call(
      bashTool,
      { command: `trap '' INT; sleep ${tag}001 & while :; do echo tick; sleep 0.2; done`, timeout: 1 },
      ctx,
    );
    expect(result.output).toMatch(/^\[1\] \d+\ntick\n/);
    expect(result.output).toMatch(/\n\[stopped: the command ran longer than its timeout of 1 s; Ctrl-C was sent\]\n/);
    expect(result.output).toMatch(/killed together with its shell \(the whole process group\)/);
    expect(result.output).toMatch(/working directory, variables and background jobs were lost/);
    expect(result.system).toMatch(/killed together with its shell/);
    expect(await stillRunning(mode, ctx, `sleep ${tag}001`)).toBe(false);

    const next = await call(bashTool, { command: 'echo "[$KEPT]"; pwd' }, ctx);
    expect(next.output).toMatch(/^\[\]\n/);
    expect(next.output).not.toMatch(/\/sub\n/);
    expect(next.output).toMatch(/\[exit code 0\]$/);
    // the loss was told once, by the call that saw it
    expect(next.output).not.toMatch(/previous shell is gone/);
  });

  it('is killed when the call is cancelled, background children included', async () => {
    const run = cancellable(ctx);
    const pending = call(
      bashTool,
      {
        command: `trap '' INT; sleep ${tag}002 & sleep ${tag}003 & while :; do echo started; sleep 0.2; done`,
        timeout: 60,
      },
      run,
    );
    await whenPrinted(run, 'started');
    run.abort.abort();
    const result = await pending;
    expect(result.output).toMatch(/\[stopped: the call was cancelled; Ctrl-C was sent\]/);
    expect(result.output).toMatch(/killed together with its shell/);
    expect(await stillRunning(mode, ctx, `sleep ${tag}002`)).toBe(false);
    expect(await stillRunning(mode, ctx, `sleep ${tag}003`)).toBe(false);
    expect((await call(bashTool, { command: 'echo works' }, ctx)).output).toBe('works\n[exit code 0]');
  });

  it('ctrl_c on a quiet command that ignores it kills it instead of wedging the shell', async () => {
    const started = await call(bashTool, { command: `trap '' INT; sleep ${tag}004` }, ctx);
    expect(started.output).toMatch(/still running/);
    const stopped = await call(bashTool, { ctrl_c: true, command: 'echo after' }, ctx);
    expect(stopped.output).toMatch(/killed together with its shell/);
    expect(stopped.output).toMatch(/was not run: call bash again with it/);
    expect(await stillRunning(mode, ctx, `sleep ${tag}004`)).toBe(false);
    expect((await call(bashTool, { command: 'echo after' }, ctx)).output).toBe('after\n[exit code 0]');
  });

  it('a Ctrl-C that works stops the command and keeps the shell', async () => {
    await call(bashTool, { command: 'export KEPT=still' }, ctx);
    const result = await call(bashTool, { command: 'while :; do sleep 0.1; done', timeout: 1 }, ctx);
    expect(result.output).toMatch(/timeout of 1 s; Ctrl-C was sent\]\n\[exit code 130\]$/);
    expect(result.system).toBeUndefined();
    expect((await call(bashTool, { command: 'echo $KEPT' }, ctx)).output).toBe('still\n[exit code 0]');
  });

  it('python: a child that ignores SIGINT is killed with the interpreter at the timeout', async () => {
    await call(pythonExecuteTool, { code: 'before = 1' }, ctx);
    const result = await call(
      pythonExecuteTool,
      { code: `import os\nos.system("trap '' INT; sleep ${tag}005")`, timeout: 1 },
      ctx,
    );
    expect(textOf(result)).toMatch(/did not respond to the interrupt and was restarted/);
    expect(await stillRunning(mode, ctx, `sleep ${tag}005`)).toBe(false);
    const after = await call(pythonExecuteTool, { code: 'print("fresh", "before" in dir())' }, ctx);
    expect(after.output).toBe('fresh False');
  });
});
