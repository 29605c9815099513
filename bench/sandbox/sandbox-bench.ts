/**
 * Sandbox latency, side by side: cold start to the first Python result, warm python_execute and bash calls over the
 * session's persistent drivers, and the naive way (a fresh `docker exec` per call) for the ratio.
 * Run: npx tsx --import ./scripts/raw-text/register.mjs bench/sandbox/sandbox-bench.ts [--warm N] [--cold N] [--naive N]
 */
import { cpus, loadavg } from 'node:os';
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { liveDockerSandbox, removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { bashTool } from '../../src/main/tool/bash.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import type { ToolResult } from '../../src/main/tool/tool.js';
import { createToolContext } from '../../tests/support/tool-context.js';

const { values } = parseArgs({
  options: {
    warm: { type: 'string', default: '300' },
    cold: { type: 'string', default: '7' },
    naive: { type: 'string', default: '40' },
  },
});
const WARM_RUNS = Number(values.warm);
const COLD_RUNS = Number(values.cold);
const NAIVE_RUNS = Number(values.naive);

interface Row {
  name: string;
  samples: number[];
  target?: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

function expectOutput(result: ToolResult, expected: string): void {
  if (!result.output?.startsWith(expected)) throw new Error(`unexpected result: ${JSON.stringify(result)}`);
}

async function timed(run: () => Promise<void>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function coldStarts(): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) {
    const ctx = createToolContext();
    samples.push(
      await timed(async () => expectOutput(await pythonExecuteTool.execute({ code: 'print(1)' }, ctx), '1')),
    );
    await removeSessionSandbox(ctx.sessionId);
  }
  return samples;
}

/** One fresh exec per call, output collected: what the tools would cost without persistent drivers. */
async function naiveExec(containerId: string, cmd: string[], user: string): Promise<number> {
  const docker = dockerClient();
  const container = docker.getContainer(containerId);
  return timed(async () => {
    const exec = await container.exec({ Cmd: cmd, User: user, AttachStdout: true, AttachStderr: true });
    const stream = await exec.start({});
    const stdout = new PassThrough();
    let text = '';
    stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    docker.modem.demuxStream(stream, stdout, new PassThrough());
    await new Promise((resolve) => stream.on('end', resolve));
    if (text.trim() !== '1') throw new Error(`naive exec printed ${JSON.stringify(text)}`);
  });
}

async function main(): Promise<void> {
  // the figures scale with machine load: say what it was
  const loadBefore = loadavg()[0] ?? 0;
  const rows: Row[] = [];
  rows.push({ name: 'cold start → first python result', samples: await coldStarts(), target: 1000 });

  const ctx = createToolContext();
  expectOutput(await pythonExecuteTool.execute({ code: 'print(1)' }, ctx), '1');
  expectOutput(await bashTool.execute({ command: 'echo 1' }, ctx), '1');
  const python: number[] = [];
  const bash: number[] = [];
  for (let i = 0; i < WARM_RUNS; i++) {
    python.push(await timed(async () => expectOutput(await pythonExecuteTool.execute({ code: 'print(1)' }, ctx), '1')));
    bash.push(
      await timed(async () => expectOutput(await bashTool.execute({ command: 'echo 1' }, ctx), '1\n[exit code 0]')),
    );
  }
  const containerId = liveDockerSandbox(ctx.sessionId)?.containerId;
  if (!containerId) throw new Error('no container');
  const user = (await dockerClient().getContainer(containerId).inspect()).Config.User;
  const naivePython: number[] = [];
  const naiveBash: number[] = [];
  for (let i = 0; i < NAIVE_RUNS; i++) {
    naivePython.push(await naiveExec(containerId, ['python3', '-c', 'print(1)'], user));
    naiveBash.push(await naiveExec(containerId, ['bash', '-c', 'echo 1'], user));
  }
  await removeSessionSandbox(ctx.sessionId);
  rows.push({ name: 'warm python_execute print(1)', samples: python, target: 10 });
  rows.push({ name: 'warm bash echo 1', samples: bash, target: 10 });
  rows.push({ name: 'naive: fresh docker exec python3 -c print(1)', samples: naivePython });
  rows.push({ name: 'naive: fresh docker exec bash -c "echo 1"', samples: naiveBash });

  const table = rows.map((row) => {
    const sorted = [...row.samples].sort((a, b) => a - b);
    const p50 = percentile(sorted, 50);
    return {
      measure: row.name,
      runs: sorted.length,
      'p50 ms': p50.toFixed(2),
      'p90 ms': percentile(sorted, 90).toFixed(2),
      'p99 ms': percentile(sorted, 99).toFixed(2),
      'max ms': (sorted[sorted.length - 1] ?? NaN).toFixed(2),
      target: row.target ? `p50 ≤ ${row.target} ms: ${p50 <= row.target ? 'PASS' : 'FAIL'}` : '',
    };
  });
  console.log(
    `${cpus().length} CPUs, load average ${loadBefore.toFixed(1)} before / ${(loadavg()[0] ?? 0).toFixed(1)} after`,
  );
  console.table(table);
  const p50Of = (name: string): number =>
    percentile(
      [...(rows.find((row) => row.name.startsWith(name))?.samples ?? [])].sort((a, b) => a - b),
      50,
    );
  console.log(
    `naive/persistent ratio (p50): python ${(p50Of('naive: fresh docker exec python3') / p50Of('warm python')).toFixed(1)}x, ` +
      `bash ${(p50Of('naive: fresh docker exec bash') / p50Of('warm bash')).toFixed(1)}x`,
  );
}

await main();
