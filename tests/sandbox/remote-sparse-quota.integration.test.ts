/**
 * Sparse files over a remote engine (copy mode): 40 files of 49 MB each (under the per-file cap of the 50 MB quota)
 * take 4 KB each in the sandbox's volume, but the copy back writes each at its full size. The quota counts what reaches
 * the host, the copy streams each file to disk instead of holding it in memory, and the model is told.
 */
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chooseEngine } from '../../src/main/sandbox/engine-choice.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { bashTool } from '../../src/main/tool/bash.js';
import type { TestToolContext } from '../support/tool-context.js';
import { describeWithSecondEngine } from '../support/second-engine.js';
import { call, sandboxContext, textOf } from './sandbox-test-kit.js';

const MIB = 1024 * 1024;
const QUOTA_MB = 50;
const FILES = 40;
const FILE_MB = 49;
/** far below the 1.96 GB the files add up to, far above what streaming one file at a time costs */
const MEMORY_BOUND_MB = 512;

/** the files' full sizes under a folder: what was written on the host, sparse or not */
function apparentSize(root: string): number {
  let total = 0;
  for (const name of readdirSync(root)) {
    const stat = lstatSync(join(root, name));
    total += stat.isDirectory() ? apparentSize(join(root, name)) : stat.size;
  }
  return total;
}

describeWithSecondEngine('sparse files in a copied workspace (remote engine)', (endpoint) => {
  let ctx: TestToolContext;
  let remote: Docker;

  beforeAll(() => {
    remote = dockerClient(chooseEngine(endpoint));
    ctx = sandboxContext({ settings: { sandbox: { engine: endpoint, workspaceQuotaMb: QUOTA_MB } } });
  });
  afterAll(async () => {
    await removeSessionSandbox(ctx.sessionId, remote);
    rmSync(ctx.workspace, { recursive: true, force: true });
  });

  it('40 sparse files of 49 MB: the host gets at most the quota, the app does not hold them in memory, the model is told', async () => {
    await call(bashTool, { command: 'true' }, ctx);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    let made;
    try {
      made = await call(
        bashTool,
        {
          command: `for i in $(seq ${FILES}); do truncate -s ${FILE_MB}M sparse-$i.bin; done; du -sk . | cut -f1; echo made`,
          timeout: 120,
        },
        ctx,
      );
    } finally {
      clearInterval(sampler);
    }
    // the attack's shape: tiny on the sandbox's disk, huge at their apparent size
    expect(made.output).toMatch(/^\d{1,4}\n/);

    const onHost = apparentSize(ctx.workspace);
    expect(onHost).toBeLessThanOrEqual(QUOTA_MB * MIB);
    expect(peak - before).toBeLessThan(MEMORY_BOUND_MB * MIB);

    // the model hears of it: at the call (the quota counts apparent sizes), and with the next one (what was kept back)
    const next = await call(bashTool, { command: 'ls | wc -l' }, ctx);
    expect(textOf(made)).toMatch(/went over its disk quota: it holds 1960\.0 MB and the quota is 50 MB/);
    expect(textOf(next)).toMatch(/39 file\(s\) would take it past the workspace quota of 50 MB/);
  });
});
