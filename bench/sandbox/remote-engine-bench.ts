/**
 * A local bind mount vs copy mode on a second engine, side by side: warm python_execute latency (each copy-mode call
 * includes its two syncs), a call that writes one small file, and moving a 100 MB workspace in each direction.
 * The second engine: scripts/sandbox/second-engine.sh, found through MANUS_TEST_REMOTE_DOCKER (or --engine).
 * Run: npx tsx --import ./scripts/raw-text/register.mjs bench/sandbox/remote-engine-bench.ts [--warm N] [--files N] [--engine tcp://127.0.0.1:2376]
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chooseEngine } from '../../src/main/sandbox/engine-choice.js';
import { dockerClient } from '../../src/main/sandbox/engine.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { pythonExecuteTool } from '../../src/main/tool/python-execute.js';
import { createToolContext, type TestToolContext } from '../../tests/support/tool-context.js';

const { values } = parseArgs({
  options: {
    warm: { type: 'string', default: '100' },
    files: { type: 'string', default: '200' },
    engine: { type: 'string', default: process.env.MANUS_TEST_REMOTE_DOCKER ?? '' },
  },
});
const WARM_RUNS = Number(values.warm);
/** small files already in the workspace: what each copy-mode call lists on both sides */
const IDLE_FILES = Number(values.files);
const BIG_FILES = 50;
const BIG_FILE_BYTES = 2 * 1024 * 1024;

interface Figures {
  warmMedianMs: number;
  warmP95Ms: number;
  smallWriteMedianMs: number;
  hostToSandbox100MbMs: number;
  sandboxToHost100MbMs: number;
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function python(ctx: TestToolContext, code: string): Promise<number> {
  const started = performance.now();
  const result = await pythonExecuteTool.execute({ code }, ctx);
  const elapsed = performance.now() - started;
  if (result.error) throw new Error(`python_execute failed: ${result.error}\n${result.output ?? ''}`);
  return elapsed;
}

async function measure(engine: string | undefined): Promise<Figures> {
  const ctx = createToolContext({ settings: engine ? { sandbox: { engine } } : {} });
  try {
    for (let index = 0; index < IDLE_FILES; index++)
      writeFileSync(join(ctx.workspace, `idle-${index}.txt`), `${index}`);
    await python(ctx, '1');
    const warm: number[] = [];
    for (let index = 0; index < WARM_RUNS; index++) warm.push(await python(ctx, '1 + 1'));
    const smallWrites: number[] = [];
    for (let index = 0; index < 20; index++) {
      smallWrites.push(await python(ctx, `open("small-${index}.txt", "w").write("x" * 100)`));
    }
    for (let index = 0; index < BIG_FILES; index++) {
      writeFileSync(join(ctx.workspace, `in-${index}.bin`), randomBytes(BIG_FILE_BYTES));
    }
    const hostToSandbox = await python(
      ctx,
      `import os\nassert sum(os.path.getsize(f"in-{i}.bin") for i in range(${BIG_FILES})) == ${BIG_FILES * BIG_FILE_BYTES}`,
    );
    const sandboxToHost = await python(
      ctx,
      `import os\nfor i in range(${BIG_FILES}): open(f"out-{i}.bin", "wb").write(os.urandom(${BIG_FILE_BYTES}))`,
    );
    return {
      warmMedianMs: percentile(warm, 50),
      warmP95Ms: percentile(warm, 95),
      smallWriteMedianMs: percentile(smallWrites, 50),
      hostToSandbox100MbMs: hostToSandbox,
      sandboxToHost100MbMs: sandboxToHost,
    };
  } finally {
    await removeSessionSandbox(ctx.sessionId, engine ? dockerClient(chooseEngine(engine)) : dockerClient());
  }
}

async function main(): Promise<void> {
  if (!values.engine) {
    process.stdout.write(
      'No second engine: start one with `bash scripts/sandbox/second-engine.sh` and set MANUS_TEST_REMOTE_DOCKER ' +
        '(or pass --engine). Nothing measured.\n',
    );
    return;
  }
  const loadBefore = loadavg()[0] ?? 0;
  const bind = await measure(undefined);
  const copy = await measure(values.engine);
  const rows: [string, keyof Figures][] = [
    ['warm python_execute, median', 'warmMedianMs'],
    ['warm python_execute, p95', 'warmP95Ms'],
    ['call writing one small file, median', 'smallWriteMedianMs'],
    ['call after the host added 100 MB', 'hostToSandbox100MbMs'],
    ['call writing 100 MB', 'sandboxToHost100MbMs'],
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  process.stdout.write(
    `Sandbox workspace: bind mount (local engine) vs copy mode (${values.engine}); ${IDLE_FILES} small files in the ` +
      `workspace, ${WARM_RUNS} warm calls; ${cpus().length} CPUs, load ${loadBefore.toFixed(2)} → ${(loadavg()[0] ?? 0).toFixed(2)}\n\n`,
  );
  process.stdout.write(
    `${'metric'.padEnd(width)}  ${'bind ms'.padStart(9)}  ${'copy ms'.padStart(9)}  ${'copy/bind'.padStart(9)}\n`,
  );
  for (const [name, key] of rows) {
    const ratio = copy[key] / bind[key];
    process.stdout.write(
      `${name.padEnd(width)}  ${bind[key].toFixed(1).padStart(9)}  ${copy[key].toFixed(1).padStart(9)}  ${`${ratio.toFixed(1)}×`.padStart(9)}\n`,
    );
  }
}

await main();
