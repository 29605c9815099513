/**
 * Sandbox code attacks the workspace quota's meter: it finds the meter's process in the container (it runs as the
 * sandbox's own user there), stops it with SIGSTOP, and writes. The bind-mounted workspace is measured from the host, so
 * the writes are stopped at the quota anyway; and a meter in the sandbox that stops answering is itself a breach.
 */
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import type { TestToolContext } from '../support/tool-context.js';
import { call, closeSandbox, sandboxContext, textOf } from './sandbox-test-kit.js';

const MIB = 1024 * 1024;
const QUOTA_MB = 50;
/** the writer below puts down 20 MB a second; the host walk runs every 200 ms during a call: a few MB past the quota */
const MARGIN_MB = 100;
/** the writer stops by itself after this much (30 s at 20 MB/s), so a broken defence does not fill the disk */
const WRITER_MB = 600;

/** disk blocks under a folder (links not followed) */
function diskUsage(root: string): number {
  const stat = lstatSync(root);
  let total = stat.blocks * 512;
  if (stat.isDirectory()) for (const name of readdirSync(root)) total += diskUsage(join(root, name));
  return total;
}

/** Python run in the sandbox: SIGSTOP to every process whose command line is the quota's meter (its source). */
const STOP_THE_METER = [
  'import os, signal',
  'stopped = 0',
  'for pid in os.listdir("/proc"):',
  '    if not pid.isdigit() or int(pid) == os.getpid():',
  '        continue',
  '    try:',
  '        command = open(f"/proc/{pid}/cmdline", "rb").read()',
  '    except OSError:',
  '        continue',
  '    if b"st_blocks" in command:',
  '        os.kill(int(pid), signal.SIGSTOP)',
  '        stopped += 1',
  'print("meters stopped:", stopped, flush=True)',
].join('\n');

const QUOTA_BREACH =
  /went over its disk quota: it holds [\d.]+ MB and the quota is 50 MB|meter in the sandbox stopped answering/;

const contexts: TestToolContext[] = [];

function session(): TestToolContext {
  const ctx = sandboxContext({ settings: { sandbox: { workspaceQuotaMb: QUOTA_MB } } });
  contexts.push(ctx);
  return ctx;
}

afterEach(async () => {
  const done = contexts.splice(0);
  await Promise.all(done.map((ctx) => closeSandbox(ctx)));
  for (const ctx of done) rmSync(ctx.workspace, { recursive: true, force: true });
});

describe('sandbox code stopping the workspace meter (bind mount)', () => {
  it('stops the meter it finds with SIGSTOP and writes 20 MB a second: stopped near the quota, and the model is told', async () => {
    const ctx = session();
    // the first call starts the container and its meter
    await call(pythonExecuteTool, { code: 'print("warm")' }, ctx);
    const flood = [
      STOP_THE_METER,
      'import time',
      'chunk = b"x" * (1024 * 1024)',
      'start = time.time()',
      `for i in range(${WRITER_MB}):`,
      '    with open(f"flood-{i}.bin", "wb") as f:',
      '        f.write(chunk)',
      '    time.sleep(max(0, start + (i + 1) / 20 - time.time()))',
      'print("wrote it all")',
    ].join('\n');
    const result = await call(pythonExecuteTool, { code: flood, timeout: 120 }, ctx);
    // the attack found the meter in the container and stopped it...
    expect(result.output).toMatch(/meters stopped: [1-9]/);
    // ...yet the writing was stopped near the quota, and the model was told why
    expect(result.output).not.toContain('wrote it all');
    expect(textOf(result)).toMatch(QUOTA_BREACH);
    expect(diskUsage(ctx.workspace)).toBeLessThan((QUOTA_MB + MARGIN_MB) * MIB);
  });

  it('a meter stopped by sandbox code is a breach by itself: every sandbox process is stopped and the model told', async () => {
    const ctx = session();
    await call(pythonExecuteTool, { code: 'print("warm")' }, ctx);
    // nothing is written: the silence alone stops the call, well before its own end
    const silent = await call(
      pythonExecuteTool,
      { code: `${STOP_THE_METER}\nimport time\ntime.sleep(45)\nprint("slept through")`, timeout: 120 },
      ctx,
    );
    expect(silent.output).toMatch(/meters stopped: [1-9]/);
    expect(silent.output).not.toContain('slept through');
    expect(textOf(silent)).toMatch(/meter in the sandbox stopped answering/);

    // the next call runs with a new meter, measuring as before
    const next = await call(pythonExecuteTool, { code: 'print("fine")' }, ctx);
    expect(next.error).toBeUndefined();
    expect(next.output).toBe('fine');
  });
});
