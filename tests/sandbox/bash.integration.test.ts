import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bashTool } from '../../src/main/tool/bash.js';
import type { TestToolContext } from '../support/tool-context.js';
import { call, closeSandbox, sandboxContext } from './sandbox-test-kit.js';

describe('bash in the Docker sandbox', () => {
  let ctx: TestToolContext;

  beforeAll(() => {
    ctx = sandboxContext({ settings: { sandbox: { bashIdleSeconds: 1 } } });
  });
  afterAll(async () => {
    await closeSandbox(ctx);
  });

  it('frames output and exit code of each command', async () => {
    const ok = await call(bashTool, { command: 'echo hello; echo oops >&2' }, ctx);
    expect(ok.output).toBe('hello\noops\n[exit code 0]');
    const failing = await call(bashTool, { command: 'ls /nonexistent' }, ctx);
    expect(failing.output).toMatch(/No such file or directory\n\[exit code 2\]$/);
    const quoted = await call(
      bashTool,
      { command: "printf '%s\\n' \"it's\" 'a \"test\"' '!x'\nfor i in 1 2; do\n  echo n$i\ndone" },
      ctx,
    );
    expect(quoted.output).toBe('it\'s\na "test"\n!x\nn1\nn2\n[exit code 0]');
  });

  it('keeps the working directory and exported variables between calls', async () => {
    await call(
      bashTool,
      { command: 'mkdir -p project/src && cd project/src && export GREETING=bonjour && LOCAL=kept' },
      ctx,
    );
    const result = await call(
      bashTool,
      { command: 'pwd; echo "$GREETING $LOCAL"; sh -c \'echo child sees $GREETING\'' },
      ctx,
    );
    expect(result.output).toBe('/workspace/project/src\nbonjour kept\nchild sees bonjour\n[exit code 0]');
  });

  it('a syntax error is reported and the shell survives', async () => {
    const broken = await call(bashTool, { command: 'if then fi (' }, ctx);
    expect(broken.output).toMatch(/syntax error/);
    expect(broken.output).toMatch(/\[exit code 2\]/);
    const after = await call(bashTool, { command: 'pwd' }, ctx);
    expect(after.output).toContain('/workspace/project/src');
  });

  it('background processes keep running between calls', async () => {
    const start = await call(
      bashTool,
      { command: '(sleep 0.3; echo finished > /workspace/bg.txt) & echo started $!' },
      ctx,
    );
    expect(start.output).toMatch(/started \d+/);
    expect(start.output).toContain('[exit code 0]');
    const wait = await call(bashTool, { command: 'sleep 0.6; cat /workspace/bg.txt' }, ctx);
    expect(wait.output).toContain('finished');
    expect(readFileSync(join(ctx.workspace, 'bg.txt'), 'utf8')).toBe('finished\n');
    // the workspace folder's owner, whoever runs the app
    expect(statSync(join(ctx.workspace, 'bg.txt')).uid).toBe(statSync(ctx.workspace).uid);
  });

  it('a long command returns its partial output when quiet, then its end when waited for', async () => {
    const first = await call(bashTool, { command: 'echo begin; sleep 3; echo end' }, ctx);
    expect(first.output).toMatch(/^begin\n\[still running \(no new output for 1 s\)/);
    const refused = await call(bashTool, { command: 'echo other' }, ctx);
    expect(refused.error).toMatch(/still running/);
    const second = await call(bashTool, { wait_seconds: 10 }, ctx);
    expect(second.output).toBe('end\n[exit code 0]');
  });

  it('sends input to a waiting command', async () => {
    const asking = await call(bashTool, { command: 'read -r -p "name? " answer; echo "hello $answer"' }, ctx);
    expect(asking.output).toContain('still running');
    const answered = await call(bashTool, { input: 'Ada' }, ctx);
    expect(answered.output).toBe('hello Ada\n[exit code 0]');
  });

  it('ctrl_c interrupts a runaway loop without losing the shell', async () => {
    const spinning = await call(bashTool, { command: 'export BEFORE=yes; while :; do :; done', timeout: 1.5 }, ctx);
    expect(spinning.output).toContain('still running');
    const stopped = await call(bashTool, { ctrl_c: true }, ctx);
    expect(stopped.output).toContain('[exit code 130]');
    const external = await call(bashTool, { command: 'sleep 100' }, ctx);
    expect(external.output).toContain('still running');
    const stoppedAgain = await call(bashTool, { ctrl_c: true, command: 'echo $BEFORE' }, ctx);
    expect(stoppedAgain.output).toBe('[exit code 130]\nyes\n[exit code 0]');
  });

  it('exit ends the shell; the next call gets a new one and says what was reset', async () => {
    const exited = await call(bashTool, { command: 'exit 7' }, ctx);
    expect(exited.output).toMatch(/The shell exited \(code 7\)/);
    const fresh = await call(bashTool, { command: 'pwd; echo "[$GREETING]"' }, ctx);
    expect(fresh.output).toBe('/workspace\n[]\n[exit code 0]');
  });

  it('cuts long output with a note, keeping its start and end, and a quick call sends no progress events', async () => {
    ctx.events.length = 0;
    const result = await call(bashTool, { command: 'seq 1 100000' }, ctx);
    expect(result.output).toMatch(/^1\n2\n3\n/);
    expect(result.output).toMatch(/characters of output cut \(limit \d+\)/);
    expect(result.output).toMatch(/99999\n100000\n\[exit code 0\]$/);
    expect(result.output?.length).toBeLessThan(10_200);
    expect(ctx.events.filter((event) => event.type === 'tool')).toEqual([]);
  });

  it('refuses an empty call clearly', async () => {
    const result = await call(bashTool, {}, ctx);
    expect(result.error).toMatch(/Give a command/);
  });
});
