import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import type { TestToolContext } from '../support/tool-context.js';
import { call, closeSandbox, containerIdOf, sandboxContext, textOf } from './sandbox-test-kit.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

describe('python_execute in the Docker sandbox', () => {
  let ctx: TestToolContext;

  beforeAll(() => {
    ctx = sandboxContext({ settings: { agent: { maxObserve: 2000 } } });
  });
  afterAll(async () => {
    await closeSandbox(ctx);
  });

  it('keeps state between calls like notebook cells and shows the last expression', async () => {
    const first = await call(
      pythonExecuteTool,
      { code: 'import math\ncounter = 41\nhandle = open("notes.txt", "w")' },
      ctx,
    );
    expect(first.error).toBeUndefined();
    const second = await call(
      pythonExecuteTool,
      { code: 'counter += 1\nhandle.write("kept open")\nhandle.close()\nmath.sqrt(counter * 2)' },
      ctx,
    );
    expect(second.error).toBeUndefined();
    expect(second.output).toContain('9.16515138991168');
    expect(readFileSync(join(ctx.workspace, 'notes.txt'), 'utf8')).toBe('kept open');
  });

  it('runs concurrent calls one after another in the same interpreter', async () => {
    const [first, second] = await Promise.all([
      call(pythonExecuteTool, { code: 'import time\ntime.sleep(0.3)\nsequence = [1]\nsequence' }, ctx),
      call(pythonExecuteTool, { code: 'sequence.append(2)\nsequence' }, ctx),
    ]);
    expect(first.output).toBe('[1]');
    expect(second.output).toBe('[1, 2]');
  });

  it('takes a large cell (a 300 KB literal)', async () => {
    const result = await call(pythonExecuteTool, { code: `blob = "${'x'.repeat(300_000)}"\nlen(blob)` }, ctx);
    expect(result.output).toBe('300000');
  });

  it('captures stdout and stderr in order, including subprocess output', async () => {
    const result = await call(
      pythonExecuteTool,
      { code: 'import sys, os\nprint("one")\nprint("two", file=sys.stderr)\nos.system("echo three")\nprint("four")' },
      ctx,
    );
    expect(result.output).toMatch(/one\ntwo\nthree\nfour/);
  });

  it('survives user code that closes or redirects its output streams', async () => {
    const closed = await call(
      pythonExecuteTool,
      { code: 'import os, sys\nprint("before")\nsys.stdout = open(os.devnull, "w")\nos.close(1)' },
      ctx,
    );
    expect(closed.output).toBe('before');
    const after = await call(pythonExecuteTool, { code: 'print("after")' }, ctx);
    expect(after.output).toBe('after');
  });

  it('returns exceptions as tracebacks and keeps going', async () => {
    const result = await call(
      pythonExecuteTool,
      { code: 'def explode():\n    raise ValueError("bad value")\nexplode()' },
      ctx,
    );
    expect(result.output).toContain('Traceback (most recent call last)');
    expect(result.output).toContain('ValueError: bad value');
    expect(result.output).toContain('explode()');
    expect(result.error).toMatch(/exception/);
    const after = await call(pythonExecuteTool, { code: 'counter' }, ctx);
    expect(after.output).toContain('42');
  });

  it('returns matplotlib figures as PNG images saved in the workspace, owned by the workspace folder’s owner', async () => {
    const result = await call(
      pythonExecuteTool,
      { code: 'import matplotlib.pyplot as plt\nplt.plot([1, 4, 9])\nplt.title("squares")\nplt.show()' },
      ctx,
    );
    expect(result.error).toBeUndefined();
    expect(result.images).toHaveLength(1);
    const image = result.images?.[0];
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image?.data ?? '', 'base64').subarray(0, 4)).toEqual(PNG_MAGIC);
    expect(image?.path).toMatch(/^\/workspace\/figures\/figure-\d+\.png$/);
    const onHost = join(ctx.workspace, (image?.path ?? '').replace('/workspace/', ''));
    expect(readFileSync(onHost).subarray(0, 4)).toEqual(PNG_MAGIC);
    expect(statSync(onHost).uid).toBe(statSync(ctx.workspace).uid);
    expect(result.output).toContain(image?.path);
  });

  it('files written in /workspace appear on the host owned by the workspace folder’s owner', async () => {
    await call(
      pythonExecuteTool,
      {
        code: 'import os\nos.makedirs("out/deep", exist_ok=True)\nopen("out/deep/data.csv", "w").write("a,b\\n1,2\\n")',
      },
      ctx,
    );
    const file = join(ctx.workspace, 'out/deep/data.csv');
    expect(readFileSync(file, 'utf8')).toBe('a,b\n1,2\n');
    expect(statSync(file).uid).toBe(statSync(ctx.workspace).uid);
    expect(statSync(join(ctx.workspace, 'out')).uid).toBe(statSync(ctx.workspace).uid);
  });

  it('interrupts an infinite loop at the timeout and keeps the state', async () => {
    const result = await call(
      pythonExecuteTool,
      { code: 'marker = "still here"\nwhile True:\n    pass', timeout: 1.5 },
      ctx,
    );
    expect(result.output).toContain('KeyboardInterrupt');
    expect(result.output).toMatch(/Interrupted after 1.5 s \(the timeout\)\. .*state is kept/);
    const after = await call(pythonExecuteTool, { code: 'marker' }, ctx);
    expect(after.output).toContain('still here');
  });

  it('interrupts a running cell when the call is cancelled', async () => {
    const cancel = new AbortController();
    const running = call(
      pythonExecuteTool,
      { code: 'import time\nwhile True:\n    time.sleep(0.05)' },
      { ...ctx, signal: cancel.signal },
    );
    setTimeout(() => cancel.abort(), 300);
    const result = await running;
    expect(result.output).toMatch(/Interrupted \(the call was cancelled\)\. .*state is kept/);
  });

  it('restarts an interpreter that ignores the interrupt and says state was lost', async () => {
    await call(pythonExecuteTool, { code: 'doomed = 1' }, ctx);
    const result = await call(
      pythonExecuteTool,
      {
        code: 'import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    time.sleep(0.1)',
        timeout: 1,
      },
      ctx,
    );
    expect(result.output).toMatch(/did not respond to the interrupt and was restarted/);
    expect(result.output).toMatch(/state .*was lost/);
    expect(result.error).toMatch(/state was lost/);
    const after = await call(pythonExecuteTool, { code: 'doomed' }, ctx);
    expect(after.output).toContain("NameError: name 'doomed' is not defined");
  });

  it('cuts output beyond max_observe with a note', async () => {
    const result = await call(pythonExecuteTool, { code: 'for i in range(5000):\n    print("line", i)' }, ctx);
    expect(result.output?.length).toBeLessThanOrEqual(2200);
    expect(result.output).toMatch(/characters of output cut \(limit \d+\)/);
    expect(result.output).toContain('line 0');
    expect(result.output).toContain('line 4999');
  });

  it('streams partial output of a long cell as tool progress events', async () => {
    ctx.events.length = 0;
    await call(
      pythonExecuteTool,
      { code: 'import time\nfor i in range(3):\n    print("tick", i, flush=True)\n    time.sleep(0.7)' },
      ctx,
    );
    const progress = ctx.events.filter(
      (event) => event.type === 'tool' && event.status === 'calling' && event.progress,
    );
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress.map((event) => (event.type === 'tool' ? event.progress : '')).join('')).toContain('tick 2');
  });

  it('a memory bomb is killed with a readable error, and the next call gets a fresh interpreter in the same container', async () => {
    const container = containerIdOf(ctx);
    const result = await call(
      pythonExecuteTool,
      { code: 'hog = []\nwhile True:\n    hog.append(bytearray(64 * 1024 * 1024))' },
      ctx,
    );
    expect(textOf(result)).toMatch(/more memory than the sandbox allows|MemoryError/);
    const after = await call(pythonExecuteTool, { code: 'print("alive")' }, ctx);
    expect(after.output).toContain('alive');
    expect(containerIdOf(ctx)).toBe(container);
    expect(existsSync(join(ctx.workspace, 'notes.txt'))).toBe(true);
  });
});
