import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SandboxSettingsSchema } from '../../src/shared/settings/sandbox-settings.js';
import { bashTool } from '../../src/main/tool/bash.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import type { TestToolContext } from '../support/tool-context.js';
import { call, closeSandbox, inspectContainer, sandboxContext, textOf } from './sandbox-test-kit.js';

const MIB = 1024 * 1024;
const QUOTA_MB = 50;
/**
 * How far past the quota a writer of many files may get: the workspace is measured every 200 ms while a call runs, so
 * what the writer puts down in that time, one measurement and the kill. The writer below is paced at about 250 MB/s
 * (1 MB, then 4 ms), so the figure does not hang on how fast this machine's page cache takes writes (unpaced, 660 MB
 * went down in under 0.4 s here): about 100 MB, doubled for a loaded machine, plus headroom.
 */
const MANY_FILES_MARGIN_MB = 512;
/** the many-file writers stop by themselves past this, so a broken watchdog fails the test without filling the disk */
const WRITER_BOUND_MB = QUOTA_MB + MANY_FILES_MARGIN_MB + 100;

/** disk blocks under a folder, as the watchdog counts them (links not followed) */
function diskUsage(root: string): number {
  const stat = lstatSync(root);
  let total = stat.blocks * 512;
  if (stat.isDirectory()) for (const name of readdirSync(root)) total += diskUsage(join(root, name));
  return total;
}

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

const QUOTA_ERROR = /went over its disk quota: it holds [\d.]+ MB and the quota is 50 MB/;

describe('the workspace quota setting', () => {
  it('defaults to 4096 MB, takes 0 for off, and refuses a negative or fractional size', () => {
    expect(SandboxSettingsSchema.parse({}).workspaceQuotaMb).toBe(4096);
    expect(SandboxSettingsSchema.parse({ workspaceQuotaMb: 0 }).workspaceQuotaMb).toBe(0);
    for (const bad of [-1, 1.5, '100']) {
      const parsed = SandboxSettingsSchema.safeParse({ workspaceQuotaMb: bad });
      expect(parsed.error?.issues[0]?.path).toEqual(['workspaceQuotaMb']);
    }
  });
});

describe('workspace disk quota (docker sandbox)', () => {
  it('python writing a 500 MB file is stopped with the quota error; after deleting it the next call works', async () => {
    const ctx = session();
    const writer = [
      'chunk = b"x" * (1024 * 1024)',
      'with open("big.bin", "wb") as f:',
      '    for _ in range(500):',
      '        f.write(chunk)',
      'print("wrote it all")',
    ].join('\n');
    const stopped = await call(pythonExecuteTool, { code: writer, timeout: 120 }, ctx);
    expect(textOf(stopped)).toMatch(QUOTA_ERROR);
    expect(stopped.error).toMatch(/disk quota/);
    expect(stopped.output).not.toContain('wrote it all');
    // one file can never outgrow the quota: the engine caps a file's size at it
    expect(lstatSync(join(ctx.workspace, 'big.bin')).size).toBeLessThanOrEqual(QUOTA_MB * MIB);
    expect(diskUsage(ctx.workspace)).toBeLessThan((QUOTA_MB + 1) * MIB);

    const removed = await call(bashTool, { command: 'rm big.bin && echo removed' }, ctx);
    expect(removed.output).toContain('removed');
    const next = await call(pythonExecuteTool, { code: 'open("small.txt", "w").write("ok")\nprint("fine")' }, ctx);
    expect(next.error).toBeUndefined();
    expect(next.output).toBe('fine');
  });

  it('a bash dd writer and a yes writer are stopped with the quota error; deleting files brings the shell back', async () => {
    const ctx = session();
    const dd = await call(bashTool, { command: 'dd if=/dev/zero of=dd.bin bs=1M count=500; echo dd-finished' }, ctx);
    expect(textOf(dd)).toMatch(QUOTA_ERROR);
    expect(diskUsage(ctx.workspace)).toBeLessThan((QUOTA_MB + 1) * MIB);
    await call(bashTool, { command: 'rm -f dd.bin' }, ctx);

    const yes = await call(bashTool, { command: 'yes > yes.txt' }, ctx);
    expect(textOf(yes)).toMatch(QUOTA_ERROR);
    expect(diskUsage(ctx.workspace)).toBeLessThan((QUOTA_MB + 1) * MIB);
    const after = await call(bashTool, { command: 'rm -f yes.txt && echo clean' }, ctx);
    expect(after.output).toBe('clean\n[exit code 0]');
    expect(after.error).toBeUndefined();
  });

  it('a writer of many small files, and one hidden in a background job, are stopped and told', async () => {
    const ctx = session();
    const many = [
      'import time',
      'chunk = b"x" * (1024 * 1024)',
      // bounded past quota + margin: without the watchdog it ends on its own, over the bound checked below
      `for i in range(${WRITER_BOUND_MB}):`,
      '    with open(f"part-{i}.bin", "wb") as f:',
      '        f.write(chunk)',
      '    time.sleep(0.004)',
    ].join('\n');
    const stopped = await call(pythonExecuteTool, { code: many, timeout: 600 }, ctx);
    expect(textOf(stopped)).toMatch(QUOTA_ERROR);
    expect(diskUsage(ctx.workspace)).toBeLessThan((QUOTA_MB + MANY_FILES_MARGIN_MB) * MIB);
    await call(bashTool, { command: 'rm -f part-*.bin' }, ctx);

    // a detached writer outlives the call that started it: the watchdog keeps measuring between calls
    const detached = await call(
      bashTool,
      {
        command:
          `setsid sh -c 'for i in $(seq ${WRITER_BOUND_MB}); do head -c 1048576 /dev/zero > bg-$i.bin; sleep 0.05; done' ` +
          '>/dev/null 2>&1 & echo detached',
      },
      ctx,
    );
    expect(detached.output).toContain('detached');
    let told: string | undefined;
    for (let attempt = 0; attempt < 60 && !told; attempt++) {
      const poll = await call(bashTool, { command: 'sleep 1; ls | wc -l' }, ctx);
      if (QUOTA_ERROR.test(textOf(poll))) told = textOf(poll);
    }
    expect(told).toMatch(QUOTA_ERROR);
    const settled = await call(bashTool, { command: 'n=$(ls | wc -l); sleep 2; echo $n $(ls | wc -l)' }, ctx);
    // nothing writes any more: the detached writer was stopped with everything else
    expect(settled.error).toBeUndefined();
    const [, before, later] = /^(\d+) (\d+)\n\[exit code 0\]/.exec(settled.output ?? '') ?? [];
    expect(before).toMatch(/^\d+$/);
    expect(later).toBe(before);
    // still over the quota, so the model is reminded; reading and deleting are not stopped
    expect(settled.output).toMatch(/at or over its quota of 50 MB: delete files/);
    expect(diskUsage(ctx.workspace)).toBeLessThan((QUOTA_MB + MANY_FILES_MARGIN_MB) * MIB);
  });

  it('a writer hiding in a folder it made unreadable is still counted', async () => {
    const ctx = session();
    const hidden = await call(
      bashTool,
      { command: 'mkdir hide && chmod 300 hide && for i in $(seq 80); do head -c 1048576 /dev/zero > hide/$i; done' },
      ctx,
    );
    expect(textOf(hidden)).toMatch(QUOTA_ERROR);
  });

  it('files deleted while still open count until they are closed', async () => {
    const ctx = session();
    const ghosts = [
      'import os',
      'ghosts = []',
      'for i in range(2):',
      '    f = open(f"ghost-{i}", "wb")',
      '    os.unlink(f"ghost-{i}")',
      '    ghosts.append(f)',
      '    for _ in range(40):',
      '        f.write(b"x" * (1024 * 1024))',
      '    f.flush()',
      'print("hidden", len(os.listdir(".")))',
    ].join('\n');
    const result = await call(pythonExecuteTool, { code: ghosts }, ctx);
    expect(textOf(result)).toMatch(QUOTA_ERROR);
  });

  it('the quota is part of the container: one file larger than it cannot be written', async () => {
    const ctx = session();
    await call(bashTool, { command: 'true' }, ctx);
    const info = await inspectContainer(ctx);
    expect(info.HostConfig.Ulimits).toEqual([{ Name: 'fsize', Soft: QUOTA_MB * MIB, Hard: QUOTA_MB * MIB }]);
  });
});
